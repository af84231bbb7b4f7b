/* The phone shim's interface only (cleadphone.h). The implementation, and with it
   libphonenumber, protobuf and ICU, is the separate library libLeadPhone.so, which LeadPort
   loads the first time it parses a phone number, so that commands that never do
   (`cat`, `inspect`, `--version`) start without those libraries. */
