//! Generates the filmstrip screenshots under docs/screens/ (issue #33); ignored in the suite, run
//! with `cargo test --test integration -- --ignored docs_filmstrip_screenshots`. A real screen frame
//! (docs/screens/team-chat-thread.png, 1280×800) with a click drawn on it by the workbench's
//! marker is encoded by the workbench's own image cache for a 150×40-cell area:
//! - with the kitty protocol (font 8×16 px): the RGBA pixels the escape sequence transmits are
//!   decoded from the rendered cell and written as a PNG (what a kitty terminal shows);
//! - in half-blocks: each rendered cell painted 8×16 px (upper half its foreground colour, lower
//!   half its background), as a terminal without a graphics protocol shows it.

use base64::Engine;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::widgets::Widget;
use ratatui_image::picker::{Picker, ProtocolType};
use ratatui_image::Image;
use tuplewright::tui::graphics::{ImageCache, Lookup};

const COLS: u16 = 150;
const ROWS: u16 = 40;

fn frame() -> image::DynamicImage {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut img = image::open(format!("{root}/docs/screens/team-chat-thread.png")).expect("png");
    // The click on "Send".
    let click = serde_json::json!({"action": "left_click", "x": 854, "y": 764});
    assert!(tuplewright::tui::marker::draw_action(&mut img, &click, 1.0));
    img
}

fn render(picker: Option<&Picker>) -> Buffer {
    let cache = ImageCache::default();
    let img = frame();
    let area = Rect::new(0, 0, COLS, ROWS);
    let mut buf = Buffer::empty(area);
    match cache.lookup((1, 1), (COLS, ROWS), &img, picker) {
        Lookup::Ready(p) => Image::new(&p).render(area, &mut buf),
        _ => panic!("not encoded"),
    }
    buf
}

fn kitty_png(buf: &Buffer) -> image::RgbaImage {
    let seq: String = buf.content().iter().map(|c| c.symbol()).collect();
    let (mut w, mut h, mut payload) = (0u32, 0u32, String::new());
    for chunk in seq.split("\x1b_G").skip(1) {
        let (keys, rest) = chunk.split_once(';').expect("kitty chunk");
        for kv in keys.split(',') {
            match kv.split_once('=') {
                Some(("s", v)) => w = v.parse().expect("s"),
                Some(("v", v)) => h = v.parse().expect("v"),
                _ => {}
            }
        }
        payload.push_str(rest.split("\x1b\\").next().unwrap_or(""));
    }
    let raw = base64::engine::general_purpose::STANDARD
        .decode(payload)
        .expect("base64");
    image::RgbaImage::from_raw(w, h, raw).expect("RGBA of s×v")
}

fn halfblocks_png(buf: &Buffer) -> image::RgbImage {
    let rgb = |c: Color| match c {
        Color::Rgb(r, g, b) => image::Rgb([r, g, b]),
        _ => image::Rgb([0, 0, 0]),
    };
    let mut out = image::RgbImage::new(u32::from(COLS) * 8, u32::from(ROWS) * 16);
    for y in 0..ROWS {
        for x in 0..COLS {
            let cell = &buf[(x, y)];
            let (top, bottom) = match cell.symbol() {
                "▄" => (rgb(cell.bg), rgb(cell.fg)),
                _ => (rgb(cell.fg), rgb(cell.bg)),
            };
            for dy in 0..16 {
                for dx in 0..8 {
                    let c = if dy < 8 { top } else { bottom };
                    out.put_pixel(u32::from(x) * 8 + dx, u32::from(y) * 16 + dy, c);
                }
            }
        }
    }
    out
}

#[test]
#[ignore = "writes docs/screens/filmstrip-*.png"]
fn docs_filmstrip_screenshots() {
    let root = env!("CARGO_MANIFEST_DIR");
    // A fixed font size (deprecated for programs, which should query the terminal): the docs
    // picture must not depend on the terminal the generator runs in.
    #[allow(deprecated)]
    let mut picker = Picker::from_fontsize((8, 16).into());
    picker.set_protocol_type(ProtocolType::Kitty);
    let kitty = kitty_png(&render(Some(&picker)));
    assert!(kitty.width() > 1000, "{}×{}", kitty.width(), kitty.height());
    kitty
        .save(format!("{root}/docs/screens/filmstrip-kitty.png"))
        .expect("save");
    let half = halfblocks_png(&render(None));
    half.save(format!("{root}/docs/screens/filmstrip-halfblocks.png"))
        .expect("save");
}
