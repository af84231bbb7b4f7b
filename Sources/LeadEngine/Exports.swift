// The executable talks to LeadEngine only; the values and readers it hands out come from
// these modules.
@_exported import LeadCore
@_exported import LeadReaders
@_exported import LeadNormalize
@_exported import LeadPortKit
@_exported import LeadStore
@_exported import LeadWriters
@_exported import LeadConnectors
@_exported import LeadEnrich
