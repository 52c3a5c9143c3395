//! `tuplewright scan`: run the C5 forbidden-pattern scanner on reward scripts.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::engine::scan::{corpus, scan_file, ScanReport};

/// Long help of `tuplewright scan` (attached to the `Command::Scan` variant).
pub const LONG_ABOUT: &str = "Scan reward.py files for the forbidden patterns of agreement \
condition C5: constant verification flags (bool-flag-constant), placeholder flags \
(placeholder-flag), hard-coded success (hardcoded-success), bare existence scoring \
(bare-existence-score), running external processes through any alias or dynamic import \
(subprocess), comment-only checks (comment-only-check), exec/eval of run-time strings \
(dynamic-code), and syntax errors (syntax-error). Each finding names the rule id, file, line, \
column, the offending source line and what to change.\n\nExit status: 0 every file is clean, 1 \
some file has a finding, 2 a file could not be read or parsed.\n\nExamples:\n  tuplewright scan \
output/final/*/reward.py\n  tuplewright scan reward.py --json\n  tuplewright scan --corpus \
tests/fixtures/scan_corpus   (labelled corpus: each .py starts with `# expect: <rule ids>|clean`; \
prints per-rule precision/recall)\n\nRules and the JSON output shape: docs/scan.md.";

/// Arguments of `tuplewright scan`.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Reward scripts to scan.
    #[arg(required_unless_present = "corpus")]
    pub files: Vec<PathBuf>,
    /// Print one JSON document (see docs/scan.md) instead of human-readable findings.
    #[arg(long)]
    pub json: bool,
    /// Evaluate a labelled corpus directory and print the per-rule precision/recall table.
    #[arg(long, value_name = "DIR", conflicts_with = "files")]
    pub corpus: Option<PathBuf>,
}

/// Run the subcommand.
pub fn run(args: ScanArgs) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.corpus {
        let results = corpus::evaluate(dir)?;
        if args.json {
            let rows: Vec<serde_json::Value> = corpus::score(&results)
                .into_iter()
                .map(|(rule, s)| {
                    serde_json::json!({
                        "rule": rule, "true_pos": s.true_pos, "false_pos": s.false_pos,
                        "false_neg": s.false_neg, "true_neg": s.true_neg,
                        "precision": s.precision(), "recall": s.recall(),
                        "false_positive_rate": s.false_positive_rate(),
                    })
                })
                .collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "files": results.len(), "rules": rows
                }))?
            );
        } else {
            for r in &results {
                if r.expected != r.found {
                    let show = |s: &std::collections::BTreeSet<_>| {
                        s.iter()
                            .map(|r: &crate::engine::scan::RuleId| r.as_str())
                            .collect::<Vec<_>>()
                            .join(",")
                    };
                    println!(
                        "MISMATCH {}: expected [{}] found [{}]",
                        r.path.display(),
                        show(&r.expected),
                        show(&r.found)
                    );
                }
            }
            print!("{}", corpus::table(&results));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut reports: Vec<ScanReport> = Vec::new();
    let mut errors: Vec<serde_json::Value> = Vec::new();
    for path in &args.files {
        match scan_file(path) {
            Ok(report) => reports.push(report),
            Err(err) => {
                if !args.json {
                    eprintln!("error: {err}");
                }
                errors.push(serde_json::json!({
                    "file": path.display().to_string(), "error": err.to_string()
                }));
            }
        }
    }
    let unparsable = reports.iter().any(|r| !r.parsed);
    let dirty = reports.iter().any(|r| !r.is_clean());
    let code: u8 = if !errors.is_empty() || unparsable {
        2
    } else if dirty {
        1
    } else {
        0
    };
    if args.json {
        let doc = serde_json::json!({
            "exit_code": code,
            "clean": code == 0,
            "reports": reports,
            "errors": errors,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        for report in &reports {
            for f in &report.findings {
                println!(
                    "{}:{}:{}: {}: {}",
                    f.file, f.line, f.column, f.rule, f.reason
                );
                println!("    {}", f.source_line.trim());
            }
        }
        let findings: usize = reports.iter().map(|r| r.findings.len()).sum();
        println!(
            "{} file(s) scanned, {} finding(s), {} unreadable",
            reports.len(),
            findings,
            errors.len()
        );
    }
    Ok(ExitCode::from(code))
}
