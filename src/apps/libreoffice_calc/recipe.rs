//! libreoffice_calc recipes: spreadsheet tasks on a workbook the setup writes with openpyxl and
//! opens in Calc.

use serde_json::{json, Value};

use crate::engine::taskgen::recipes::{Ctx, Draft, Recipe};
use crate::engine::taskgen::phrasing::pick;

/// Sheets the recipes write: (file stem, sheet name, header, row labels).
pub const BOOKS: [(&str, &str, [&str; 4], [&str; 5]); 4] = [
    ("sales", "Sales", ["Region", "Q1", "Q2", "Q3"], ["North", "South", "East", "West", "Central"]),
    ("budget", "Budget", ["Category", "Jan", "Feb", "Mar"], ["Rent", "Payroll", "Travel", "Software", "Supplies"]),
    ("grades", "Grades", ["Student", "Quiz", "Midterm", "Final"], ["Ada", "Ben", "Chen", "Dana", "Eli"]),
    ("inventory", "Stock", ["Item", "Store A", "Store B", "Store C"], ["Pens", "Paper", "Toner", "Folders", "Tape"]),
];

/// The sheet of book `b` with `n` data rows (header first), numbers from `serial`.
pub fn sheet_rows(b: usize, n: usize, serial: u64) -> Vec<Value> {
    let (_, _, header, labels) = BOOKS[b % BOOKS.len()];
    let mut rows = vec![json!(header)];
    for (i, label) in labels.iter().take(n).enumerate() {
        let base = 10 + (serial * 17 + i as u64 * 29) % 90;
        rows.push(json!([label, base, base + 7 + i as u64, base * 2 % 97 + 3]));
    }
    rows
}

/// `fill_cells`: type values into empty cells of the next column.
pub fn fill(ctx: &mut Ctx<'_>) -> Option<Draft> {
    let b = ctx.serial as usize % BOOKS.len();
    let (stem, sheet, _, labels) = BOOKS[b];
    let n = match ctx.difficulty {
        "easy" => 1,
        "medium" => 2,
        _ => 3,
    };
    let rows = sheet_rows(b, 5, ctx.serial);
    let mut cells = serde_json::Map::new();
    let mut said = Vec::new();
    for (i, label) in labels.iter().take(n).enumerate() {
        let value = 100 + (ctx.serial * 7 + i as u64 * 13) % 400;
        cells.insert(format!("E{}", i + 2), json!(value));
        said.push(format!("{label} {value}"));
    }
    let file = format!("Documents/{stem}-{}.xlsx", ctx.serial % 1000);
    let title = *pick(ctx.rng, &["Q4", "Apr", "Total", "Score"]);
    cells.insert("E1".into(), json!(title));
    let v = ctx.idx(2);
    let core = match v {
        0 => format!("In {file} (open in Calc), add a column '{title}' in E with {} and save the file.", said.join(", ")),
        _ => format!("Fill column E of the {sheet} sheet in {file}: header '{title}', then {}. Save it as .xlsx.", said.join(", ")),
    };
    let context = format!("The setup writes /home/user/{file} (sheet {sheet}, A1:D6) and opens it in Calc. Ground truth: cells {} . Checkpoints: one per cell, equal weight.", Value::Object(cells.clone()));
    let slots = json!({"file": file, "sheet": sheet, "rows": rows, "cells": cells});
    Some(ctx.draft(v, core, context, "fill_cells", slots, vec!["libreoffice_calc"]))
}

/// The pack's recipes by taxonomy `recipe` name.
pub const RECIPES: &[(&str, Recipe)] = &[("calc_fill", fill)];
