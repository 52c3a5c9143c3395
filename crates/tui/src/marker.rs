//! Where a step's action happened, drawn into its screenshot before the image is encoded for the
//! terminal: a crosshair in a box for clicks (a double box for double and triple clicks), a line
//! from a ring to a box for drags, a small crosshair for pointer moves, and an arrow for scrolls
//! (up, down, left or right as the wheel turned). Marks are drawn in a bright colour with a dark
//! outline so they show on light and dark pages alike, and scaled with the image.
//!
//! (The few primitives are drawn here; the `imageproc` crate is not in the offline registry and
//! would bring a numeric stack for four lines and a box.)

use image::{DynamicImage, Rgba, RgbaImage};
use serde_json::Value;

use tuplewright_engine::rollout::screen::ComputerAction;

const MARK: Rgba<u8> = Rgba([255, 0, 200, 255]);
const OUTLINE: Rgba<u8> = Rgba([20, 20, 20, 255]);

/// Draws the mark of `action` (a `ComputerAction` as JSON, in screen pixels) on `img`, whose
/// pixels are `scale` times the screen's. Returns whether the action has a place to mark.
pub fn draw_action(img: &mut DynamicImage, action: &Value, scale: f64) -> bool {
    let Ok(action) = serde_json::from_value::<ComputerAction>(action.clone()) else {
        return false;
    };
    let mut canvas = img.to_rgba8();
    let p = |x: i32, y: i32| ((x as f64 * scale) as i32, (y as f64 * scale) as i32);
    // Marks keep a readable size on small thumbnails.
    let r = ((14.0 * scale) as i32).max(5);
    use ComputerAction as A;
    match action {
        A::LeftClick { x, y } | A::RightClick { x, y } | A::MiddleClick { x, y } => {
            click(&mut canvas, p(x, y), r, 1);
        }
        A::DoubleClick { x, y } => click(&mut canvas, p(x, y), r, 2),
        A::TripleClick { x, y } => click(&mut canvas, p(x, y), r, 3),
        A::MouseMove { x, y } => cross(&mut canvas, p(x, y), r / 2),
        A::LeftClickDrag { x, y, to_x, to_y } => {
            let (a, b) = (p(x, y), p(to_x, to_y));
            both(&mut canvas, |c, col, w| line(c, a, b, col, w));
            both(&mut canvas, |c, col, w| ring(c, a, r / 2, col, w));
            click(&mut canvas, b, r, 1);
        }
        A::Scroll { x, y, amount } => arrow(&mut canvas, p(x, y), (0, amount.signum()), r),
        A::Hscroll { x, y, amount } => arrow(&mut canvas, p(x, y), (amount.signum(), 0), r),
        _ => return false,
    }
    *img = DynamicImage::ImageRgba8(canvas);
    true
}

/// Draws with the outline first (wider), then the mark.
fn both(c: &mut RgbaImage, mut f: impl FnMut(&mut RgbaImage, Rgba<u8>, i32)) {
    f(c, OUTLINE, 2);
    f(c, MARK, 1);
}

fn click(c: &mut RgbaImage, at: (i32, i32), r: i32, boxes: i32) {
    cross(c, at, r);
    for k in 0..boxes {
        let s = r * 2 / 3 + k * 4;
        both(c, |c, col, w| square(c, at, s, col, w));
    }
}

fn cross(c: &mut RgbaImage, (x, y): (i32, i32), r: i32) {
    both(c, |c, col, w| {
        line(c, (x - r, y), (x + r, y), col, w);
        line(c, (x, y - r), (x, y + r), col, w);
    });
}

fn square(c: &mut RgbaImage, (x, y): (i32, i32), s: i32, col: Rgba<u8>, w: i32) {
    let (l, t, r, b) = (x - s, y - s, x + s, y + s);
    line(c, (l, t), (r, t), col, w);
    line(c, (r, t), (r, b), col, w);
    line(c, (r, b), (l, b), col, w);
    line(c, (l, b), (l, t), col, w);
}

fn ring(c: &mut RgbaImage, (x, y): (i32, i32), r: i32, col: Rgba<u8>, w: i32) {
    let steps = (r * 8).max(16);
    let pt = |i: i32| {
        let a = i as f64 / steps as f64 * std::f64::consts::TAU;
        (
            x + (a.cos() * r as f64).round() as i32,
            y + (a.sin() * r as f64).round() as i32,
        )
    };
    for i in 0..steps {
        line(c, pt(i), pt(i + 1), col, w);
    }
}

fn arrow(c: &mut RgbaImage, (x, y): (i32, i32), (dx, dy): (i32, i32), r: i32) {
    let tip = (x + dx * r, y + dy * r);
    let tail = (x - dx * r, y - dy * r);
    let h = r / 2;
    // The two barbs, perpendicular to the shaft.
    let (bx, by) = (tip.0 - dx * h, tip.1 - dy * h);
    let (px, py) = (dy * h, dx * h);
    both(c, |c, col, w| {
        line(c, tail, tip, col, w);
        line(c, tip, (bx + px, by + py), col, w);
        line(c, tip, (bx - px, by - py), col, w);
        ring(c, (x, y), 2, col, w);
    });
}

/// A line `w` pixels thick (a square brush at every point of a Bresenham walk), clipped.
fn line(c: &mut RgbaImage, (x0, y0): (i32, i32), (x1, y1): (i32, i32), col: Rgba<u8>, w: i32) {
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let (mut x, mut y, mut err) = (x0, y0, dx + dy);
    let (width, height) = (c.width() as i32, c.height() as i32);
    loop {
        for bx in -w + 1..w {
            for by in -w + 1..w {
                let (px, py) = (x + bx, y + by);
                if px >= 0 && py >= 0 && px < width && py < height {
                    c.put_pixel(px as u32, py as u32, col);
                }
            }
        }
        if x == x1 && y == y1 {
            return;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn blank() -> DynamicImage {
        DynamicImage::ImageRgba8(RgbaImage::from_pixel(200, 100, Rgba([255, 255, 255, 255])))
    }

    fn marked(img: &DynamicImage) -> Vec<(u32, u32)> {
        let c = img.to_rgba8();
        c.enumerate_pixels()
            .filter(|(_, _, p)| **p == MARK)
            .map(|(x, y, _)| (x, y))
            .collect()
    }

    #[test]
    fn a_click_is_marked_at_its_scaled_point_and_a_key_press_is_not() {
        let mut img = blank();
        assert!(draw_action(
            &mut img,
            &json!({"action": "left_click", "x": 200, "y": 100}),
            0.5
        ));
        let px = marked(&img);
        assert!(px.contains(&(100, 50)), "the crosshair's centre");
        assert!(px
            .iter()
            .all(|(x, y)| x.abs_diff(100) <= 12 && y.abs_diff(50) <= 12));
        let mut img = blank();
        assert!(!draw_action(
            &mut img,
            &json!({"action": "key", "key": "Return"}),
            1.0
        ));
        assert!(marked(&img).is_empty());
        assert!(!draw_action(&mut img, &json!({"action": "bogus"}), 1.0));
    }

    #[test]
    fn a_drag_is_a_line_between_its_ends_and_marks_off_the_image_are_clipped() {
        let mut img = blank();
        draw_action(
            &mut img,
            &json!({"action": "left_click_drag", "x": 20, "y": 50, "to_x": 180, "to_y": 50}),
            1.0,
        );
        let px = marked(&img);
        assert!((40..160).all(|x| px.contains(&(x, 50))), "the line");
        let mut img = blank();
        draw_action(
            &mut img,
            &json!({"action": "scroll", "x": 199, "y": 99, "amount": -3}),
            1.0,
        );
        assert!(!marked(&img).is_empty(), "the visible part is drawn");
    }
}
