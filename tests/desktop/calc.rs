//! LibreOffice Calc: the shipped tasks pass the loop, a sample is solved through the screen by
//! the ui-oracle (keyboard plans checked against AT-SPI), `noop --screen` scores 0, the state
//! reader turns a workbook into cells/formulas/styles, and the launch a setup recorded opens
//! Calc on that file with its accessibility tree readable.

use serde_json::Value;

const TASKS: &str = include_str!("../../crates/engine/src/apps/libreoffice_calc/tasks.json");
/// The sample solved through the screen in CI (one per kind of plan: typing, a shortcut on a
/// Name Box range, a menu and a dialog).
const SAMPLE: [&str; 3] = [
    "libreoffice_calc_formula-total_002",
    "libreoffice_calc_number-format_001",
    "libreoffice_calc_rename-sheet_001",
];

fn sample_tasks() -> String {
    let all: Value = serde_json::from_str(TASKS).unwrap();
    let picked: Vec<Value> = all["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| SAMPLE.contains(&t["task_id"].as_str().unwrap()))
        .cloned()
        .collect();
    assert_eq!(picked.len(), SAMPLE.len());
    serde_json::json!({ "tasks": picked }).to_string()
}

#[test]
fn a_sample_of_calc_tasks_is_solved_through_the_screen_and_noop_scores_zero() {
    let _heavy = crate::common::one_heavy_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let log = super::run_loop(dir.path(), &sample_tasks());
    assert!(log.contains("accepted         3"), "{log}");
    let (rewards, err) = super::rollout(dir.path(), &["ui-oracle"], &SAMPLE);
    for (id, r) in &rewards {
        assert_eq!(*r, Some(1.0), "ui-oracle on {id}: {err}");
    }
    let (rewards, err) = super::rollout(dir.path(), &["noop", "--screen"], &SAMPLE[..1]);
    assert_eq!(rewards[0].1, Some(0.0), "{err}");
}

#[test]
fn the_state_reader_reports_values_formulas_styles_merges_and_frozen_panes() {
    let _heavy = crate::common::one_heavy_at_a_time();
    use tuplewright::engine::desktop::state_reader::{read_state, READER_PYTHON, READER_TIMEOUT};
    let home = tempfile::tempdir().unwrap();
    let make = "import openpyxl,sys\nfrom openpyxl.styles import Font, PatternFill\n\
        wb=openpyxl.Workbook();ws=wb.active;ws.title='Data'\n\
        ws['A1']='Total';ws['A1'].font=Font(bold=True);ws['B1']=2;ws['B2']=3;ws['B3']='=SUM(B1:B2)'\n\
        ws['C1'].fill=PatternFill('solid',fgColor='FFFFFF00');ws.merge_cells('D1:E1');ws.freeze_panes='A2'\n\
        wb.save(sys.argv[1]+'/book.xlsx')\nopen(sys.argv[1]+'/broken.xlsx','w').write('not a zip')\n\
        open(sys.argv[1]+'/.~lock.book.xlsx#','w').write('lock')\n";
    let st = std::process::Command::new(READER_PYTHON)
        .args(["-c", make])
        .arg(home.path())
        .status()
        .unwrap();
    assert!(st.success());
    let pack = tuplewright::apps::get("libreoffice_calc").unwrap();
    let script = pack.app.state_reader().unwrap();
    let s = read_state(
        pack.name(),
        script,
        home.path(),
        READER_PYTHON.as_ref(),
        READER_TIMEOUT,
    )
    .unwrap();
    let sheet = &s["workbooks"]["book.xlsx"]["sheets"]["Data"];
    assert_eq!(sheet["cells"]["A1"]["value"], "Total");
    assert_eq!(sheet["cells"]["A1"]["style"]["bold"], true);
    assert_eq!(sheet["cells"]["B3"]["formula"], "=SUM(B1:B2)");
    assert_eq!(sheet["cells"]["C1"]["style"]["fill"], "FFFFFF00");
    assert_eq!(sheet["merged"][0], "D1:E1");
    assert_eq!(sheet["freeze"], "A2");
    // A document that cannot be read is state, not a failure; lock files are not documents.
    assert!(s["workbooks"]["broken.xlsx"]["error"]
        .as_str()
        .unwrap()
        .contains("File"));
    assert_eq!(s["workbooks"].as_object().unwrap().len(), 2, "{s}");
}
