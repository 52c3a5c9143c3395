//! The ready gate's document check on a real Xvfb: an application launched on a document is
//! ready once a window of its classes is titled with that document, not while it shows
//! `Untitled 1`; one that never shows it is an infrastructure failure quoting its windows'
//! titles; a document the application answers with a dialog (LibreOffice on a corrupt workbook
//! and on files that are no workbook, which it imports as text or opens in Writer) is refused
//! at once, naming the document and quoting the
//! dialog, never a screen handed to an agent.

use std::time::{Duration, Instant};

use tuplewright::engine::rollout::desktop_apps::screen_apps;
use tuplewright::engine::screen::{
    AppDesktopSpec, Screen, ScreenApp, ScreenConfig, ScreenError, ScreenSize,
};

/// A Tk window of class `Tkdoc` titled `first`, retitled `later` after a second (when given).
fn titled_app(first: &str, later: Option<&str>) -> ScreenApp {
    let retitle = later.map_or(String::new(), |t| {
        format!("r.after(1000, lambda: r.title({t:?}))\n")
    });
    let script = format!(
        "import tkinter\nr = tkinter.Tk(className='tkdoc')\nr.title({first:?})\n\
         tkinter.Label(r, text='x' * 40).pack()\n{retitle}r.mainloop()\n"
    );
    ScreenApp {
        name: "tkdoc".into(),
        program: "/usr/bin/python3".into(),
        args: vec!["-c".into(), script, "/home/user/Documents/plan.txt".into()],
        env: vec![],
        classes: vec!["Tkdoc".into()],
        profile: vec![],
        ready: Duration::from_millis(4_000),
        document_title: Some("{name}".into()),
    }
}

fn open(
    app: Vec<ScreenApp>,
    home: &std::path::Path,
    cfg: &ScreenConfig,
) -> Result<(), ScreenError> {
    let mut s = Screen::start(cfg, ScreenSize::default()).unwrap();
    let spec = AppDesktopSpec {
        home: home.to_path_buf(),
        files: false,
        apps: app,
    };
    s.open_apps(cfg, &spec).map(|_| ())
}

#[test]
fn the_gate_waits_for_the_documents_title_and_an_untitled_window_is_infrastructure() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let (_d, home) = super::runtime::home();
    std::fs::write(home.join("Documents/plan.txt"), "plan").unwrap();
    let cfg = ScreenConfig {
        ready_timeout_ms: 4_000,
        ..Default::default()
    };
    // Titled with the document a second after its window maps: ready, not failed.
    open(
        vec![titled_app("Untitled 1", Some("plan.txt - Tk"))],
        &home,
        &cfg,
    )
    .unwrap();
    // Never titled with it: the deadline names the document and quotes the title it kept.
    let t = Instant::now();
    let err = open(vec![titled_app("Untitled 1", None)], &home, &cfg).unwrap_err();
    assert!(matches!(err, ScreenError::DocumentNotShown { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("/home/user/Documents/plan.txt") && msg.contains("\"Untitled 1\""),
        "{msg}"
    );
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
}

#[test]
fn calc_on_a_corrupt_workbook_or_a_file_that_is_none_is_refused_quoting_its_dialog() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let (_d, home) = super::runtime::home();
    let docs = home.join("Documents");
    // A zip whose parts are garbage: LibreOffice's general input/output error.
    let made = std::process::Command::new("python3")
        .arg("-c")
        .arg("import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w')\nz.writestr('[Content_Types].xml', '<garbage')\nz.close()")
        .arg(docs.join("broken.xlsx"))
        .status()
        .unwrap();
    assert!(made.success());
    // Comma-separated text named .xlsx: LibreOffice asks how to import it…
    std::fs::write(docs.join("noise.xlsx"), "name,amount\nalpha,1\nbeta,2\n").unwrap();
    // … and other bytes it opens in Writer, as text.
    std::fs::write(docs.join("prose.xlsx"), [0x9c_u8; 3000]).unwrap();
    let cfg = ScreenConfig::default();
    let cases = [
        ("broken.xlsx", "LibreOffice"),
        ("noise.xlsx", "Text Import"),
        ("prose.xlsx", "libreoffice-writer"),
    ];
    for (file, quoted) in cases {
        let line = format!("libreoffice --calc /home/user/Documents/{file}");
        let apps = screen_apps(&["libreoffice_calc".to_string()], &[line]).unwrap();
        let t = Instant::now();
        let err = open(apps, &home, &cfg).unwrap_err();
        assert!(matches!(err, ScreenError::DocumentRefused { .. }), "{err}");
        let msg = err.to_string();
        eprintln!("{file}: {msg}");
        assert!(msg.contains(file) && msg.contains(quoted), "{msg}");
        // Refused when the dialog shows, not at the ready gate's 60-second deadline.
        assert!(
            t.elapsed() < Duration::from_secs(45),
            "{:?}: {msg}",
            t.elapsed()
        );
    }
}
