//! The Stats screen: scrolling stays within the page (so `k` after many `j` moves at once), the
//! page switches to two columns on wide terminals, and the sections show the fixture's figures.

use ratatui::backend::TestBackend;
use ratatui::Terminal;
use tuplewright::tui::model::stats::{max_scroll, page_height};
use tuplewright::tui::model::Msg;
use tuplewright::tui::theme::Theme;
use tuplewright::tui::view;

use super::fixture::{keys, loaded_model};

fn screen_text(m: &tuplewright::tui::model::Model, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    let theme = Theme::builtin("dark", true).expect("theme");
    term.draw(|f| view::draw(f, m, &theme, "fixture.db"))
        .expect("draw");
    let buf = term.backend().buffer().clone();
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

#[test]
fn stats_scroll_is_clamped_to_the_page_and_wide_pages_use_two_columns() {
    let (mut m, store) = loaded_model();
    m.update(Msg::Resize(80, 24));
    keys(&mut m, &store, "8");
    let stats = m.stats.clone().expect("stats loaded");
    let stats = &*stats;
    let max = max_scroll(Some(stats), (80, 24));
    assert!(
        max > 20,
        "the one-column page is taller than the pane ({max})"
    );
    let js = vec!["j"; max + 30].join(" ");
    keys(&mut m, &store, &js);
    assert_eq!(m.stats_scroll, max);
    keys(&mut m, &store, "k");
    assert_eq!(m.stats_scroll, max - 1, "one k moves at once");
    keys(&mut m, &store, "G");
    let bottom = screen_text(&m, 80, 24);
    assert!(bottom.contains("Tokens and cost (F.2.1)"), "{bottom}");
    assert!(bottom.contains("Total"), "{bottom}");
    keys(&mut m, &store, "g g");
    assert_eq!(m.stats_scroll, 0);
    let top = screen_text(&m, 80, 24);
    assert!(
        top.contains("Coverage targets (A.2.5)") && top.contains("NOT met"),
        "{top}"
    );
    // 160 columns: two columns, so the page is shorter than at 80 and histograms sit beside the targets.
    assert!(page_height(stats, 158) < page_height(stats, 78));
    let wide = screen_text(&m, 160, 48);
    let line = wide
        .lines()
        .find(|l| l.contains("Coverage targets"))
        .expect("targets title");
    assert!(line.contains("Instruction length in words"), "{line}");
}
