//! The OSWorld face on a desktop application: `env serve --osworld --app libreoffice_calc` opens
//! Calc on the guest's screen, `/accessibility` is Calc's own AT-SPI tree in OSWorld's XML shape
//! (the sheet, the Name Box showing the cell), and `/file` reads a document of the home back.

use crate::osworld_support;

use std::time::Duration;

use tuplewright::engine::osworld::GuestClient;

#[test]
fn a_calc_guest_serves_its_atspi_tree_and_its_documents() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let guest =
        osworld_support::serve(tempfile::tempdir().unwrap(), &["--app", "libreoffice_calc"]);
    let client = GuestClient::new(&guest.url).unwrap();
    let mut xml = String::new();
    // Calc's tree registers on the bus a little after its window is drawn: wait for the sheet.
    assert!(
        osworld_support::eventually(120, || {
            xml = client.accessibility().unwrap_or_default();
            xml.contains("<table ")
        }),
        "no sheet in the guest's accessibility tree: {xml}"
    );
    assert!(xml.starts_with("<desktop-frame "), "{xml}");
    assert!(xml.contains("<application name=\"soffice\""), "{xml}");
    assert!(xml.contains("LibreOffice Calc"), "{xml}");
    assert!(
        xml.contains("<menu-item ") || xml.contains("<menu "),
        "{xml}"
    );
    let doc = client
        .file(
            "/home/user/Documents/sales-2025.xlsx",
            Duration::from_secs(60),
        )
        .unwrap()
        .expect("the seed workbook is in the guest's home");
    assert!(doc.starts_with(b"PK"), "an .xlsx is a zip");
}
