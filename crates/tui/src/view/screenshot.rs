//! A trial's screenshot with ratatui-image: the terminal's graphics protocol (Kitty, Sixel,
//! iTerm2) when the picker queried at start-up found one, half-blocks otherwise (and always in
//! tests, where no terminal is queried). The image is encoded once per trial and area (in the
//! background in the real terminal, see [`crate::graphics::ImageCache`]), then the cached
//! protocol is drawn on every frame.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;
use ratatui_image::Image;

use crate::filmstrip_data::FrameKey;
use crate::graphics::Lookup;

use crate::model::rollouts::RolloutsState;
use crate::theme::{Role, Theme};

/// Draws `img` (frame `id`) fitted into `area`.
pub fn draw(
    f: &mut Frame<'_>,
    area: Rect,
    st: &RolloutsState,
    id: FrameKey,
    img: &image::DynamicImage,
    theme: &Theme,
) {
    if area.width < 2 || area.height < 2 {
        return;
    }
    // A zoomed frame is another image: its key carries the zoom, and the crop is made only when
    // that key is not encoded yet (not on every frame).
    let zoom = st.zoom.clamp(1, 4);
    let key = (id.0, id.1.wrapping_mul(8).wrapping_add(i64::from(zoom)));
    let size = (area.width, area.height);
    let cropped;
    let img = if zoom > 1 && st.image.ready_key() != Some((key, size)) {
        cropped = centre(img, u32::from(zoom));
        &cropped
    } else {
        img
    };
    let lookup = st.image.lookup(key, size, img, st.picker.as_ref());
    match lookup {
        Lookup::Ready(p) => f.render_widget(Image::new(&p), area),
        Lookup::Pending => f.render_widget(
            Line::styled("encoding the screenshot…", theme.style(Role::Muted)),
            area,
        ),
        Lookup::Failed(e) => f.render_widget(
            Line::styled(
                format!("screenshot: cannot encode: {e}"),
                theme.style(Role::Alert),
            ),
            area,
        ),
    }
}

/// The centre `1/zoom` of `img` (each side), the part a zoom shows.
pub fn centre(img: &image::DynamicImage, zoom: u32) -> image::DynamicImage {
    let (w, h) = (img.width(), img.height());
    let (cw, ch) = ((w / zoom).max(1), (h / zoom).max(1));
    img.crop_imm((w - cw) / 2, (h - ch) / 2, cw, ch)
}
