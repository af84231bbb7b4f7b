/// Issue 23's classes, written by hand from Publication 28's conventions (§232 street names,
/// §233 directionals, §213 secondary units, §24–25 routes, §28 boxes, Appendix D grid numbers)
/// and the shapes the issue quotes. Labels as in `AddressAccuracyCases`.
extension AddressAccuracyCases {
    static let issue23: [(String, String)] = [
        // The street/city boundary without a comma: the ZIP code's place, else the state's.
        ("5418 RIVER RD LIBERTY GROVE RD NORTH WILKESBORO NC 28659", "h=5418|n=RIVER RD LIBERTY GROVE|s=RD|c=NORTH WILKESBORO|st=NC|z=28659"),
        ("115 Broadway San Francisco CA 94105", "h=115|n=BROADWAY|c=SAN FRANCISCO|st=CA|z=94105"),
        ("115 Broadway San Francisco CA", "h=115|n=BROADWAY|c=SAN FRANCISCO|st=CA"),
        ("12 Lake Shore Dr Lake Forest IL 60045", "h=12|n=LAKE SHORE|s=DR|c=LAKE FOREST|st=IL|z=60045"),
        ("6190 Turkey Run Court", "h=6190|n=TURKEY RUN|s=CT"),
        ("88 Willow Ct Rolling Meadows IL", "h=88|n=WILLOW|s=CT|c=ROLLING MEADOWS|st=IL"),
        ("1275 Cromwell Ave Rocky Hill CT", "h=1275|n=CROMWELL|s=AVE|c=ROCKY HILL|st=CT"),
        ("123 Windsor Ct", "h=123|n=WINDSOR|s=CT"),
        // Units without a designator, and ids of two words.
        ("101 W. Grand Ave. 600, Chicago, IL 60654", "h=101|pre=W|n=GRAND|s=AVE|u=600|c=CHICAGO|st=IL|z=60654"),
        ("203 N. Wabash 608, Chicago, IL 60601", "h=203|pre=N|n=WABASH|u=608|c=CHICAGO|st=IL|z=60601"),
        ("212 W. Washington, 1506, Chicago, IL 60606", "h=212|pre=W|n=WASHINGTON|u=1506|c=CHICAGO|st=IL|z=60606"),
        ("3240 North Lake Shore Drive Apt 13 C, Chicago, IL 60657", "h=3240|pre=N|n=LAKE SHORE|s=DR|ut=APT|u=13 C|c=CHICAGO|st=IL|z=60657"),
        ("14 Mountain Rd Condo D1, Stowe, VT 05672", "h=14|n=MOUNTAIN|s=RD|ut=CONDO|u=D1|c=STOWE|st=VT|z=05672"),
        // Post-directionals after a comma (not Nebraska).
        ("1800 M Street, NW, Washington, DC 20036", "h=1800|n=M|s=ST|post=NW|c=WASHINGTON|st=DC|z=20036"),
        ("235 Peachtree Street, NE", "h=235|n=PEACHTREE|s=ST|post=NE"),
        ("235 Peachtree Street, NE Suite 2000 Atlanta, GA 30303", "h=235|n=PEACHTREE|s=ST|post=NE|ut=STE|u=2000|c=ATLANTA|st=GA|z=30303"),
        ("1 Main St, Lincoln, NE", "h=1|n=MAIN|s=ST|c=LINCOLN|st=NE"),
        // House numbers: words, a letter, grid.
        ("One S. Dearborn St., Chicago, IL 60603", "h=ONE|pre=S|n=DEARBORN|s=ST|c=CHICAGO|st=IL|z=60603"),
        ("4922 B South Cornell Avenue, Chicago, IL 60615", "h=4922 B|pre=S|n=CORNELL|s=AVE|c=CHICAGO|st=IL|z=60615"),
        ("N165 W2123 Tartan Ct, Jackson, WI 53037", "h=N165W2123|n=TARTAN|s=CT|c=JACKSON|st=WI|z=53037"),
        // Attention and care-of text after the street: kept, not the city.
        ("271 Spring St NW Attn: Regus, Atlanta, GA 30303", "h=271|n=SPRING|s=ST|post=NW|c=ATLANTA|st=GA|z=30303|x=Attn Regus"),
        ("40 Main St C/O Ann Lee Springfield IL 62701", "h=40|n=MAIN|s=ST|c=SPRINGFIELD|st=IL|z=62701|x=C/O Ann Lee"),
        // A box beside a file or bin number.
        ("File 74155 PO Box 60000 San Francisco CA 94160", "ut=FILE|u=74155|box=60000|c=SAN FRANCISCO|st=CA|z=94160"),
        ("Bin # 11 P O Box 9201 Minneapolis MN 55480", "ut=BIN|u=11|box=9201|c=MINNEAPOLIS|st=MN|z=55480"),
        ("Lockbox 9351 PO Box 8500 Philadelphia PA 19178", "ut=LOCKBOX|u=9351|box=8500|c=PHILADELPHIA|st=PA|z=19178"),
        ("Drawer 368 PO Box 11407 Birmingham AL 35246", "ut=DRAWER|u=368|box=11407|c=BIRMINGHAM|st=AL|z=35246"),
        ("PO Box 60000 File 73484 San Francisco CA 94160", "ut=FILE|u=73484|box=60000|c=SAN FRANCISCO|st=CA|z=94160"),
        ("3523 Williams St, POB 477 Patterson, GA 31557", "h=3523|n=WILLIAMS|s=ST|box=477|c=PATTERSON|st=GA|z=31557"),
        // Saint and Fort.
        ("1200 Market St St Louis MO 63103", "h=1200|n=MARKET|s=ST|c=ST LOUIS|st=MO|z=63103"),
        ("5500 N. St. Louis Ave", "h=5500|pre=N|n=ST LOUIS|s=AVE"),
        ("648 SW Port St Lucie Blvd, Port St Lucie, FL 34953", "h=648|pre=SW|n=PORT ST LUCIE|s=BLVD|c=PORT ST LUCIE|st=FL|z=34953"),
        ("500 Main St Ft Worth TX 76102", "h=500|n=MAIN|s=ST|c=FT WORTH|st=TX|z=76102"),
        // State words inside street names.
        ("2000 Old Alabama Rd Roswell GA 30076", "h=2000|n=OLD ALABAMA|s=RD|c=ROSWELL|st=GA|z=30076"),
        ("300 New Jersey Ave., NW, Washington, DC 20001", "h=300|n=NEW JERSEY|s=AVE|post=NW|c=WASHINGTON|st=DC|z=20001"),
        // Highway contract routes are not rural routes.
        ("HC 72 Box 15, Roy, NM 87743", "n=HC 72|box=15|c=ROY|st=NM|z=87743"),
        ("HC Route 72 Box 1A, Roy, NM 87743", "n=HC 72|box=1A|c=ROY|st=NM|z=87743"),
        ("Hwy Contract Route 102 Box 255A", "n=HC 102|box=255A"),
    ]
}
