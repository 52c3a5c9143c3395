//! A trial's screenshot with ratatui-image: the terminal's graphics protocol (Kitty, Sixel,
//! iTerm2) when the picker queried at start-up found one, half-blocks otherwise (and always in
//! tests, where no terminal is queried). The image is encoded once per trial and area (in the
//! background in the real terminal, see [`crate::tui::graphics::ImageCache`]), then the cached
//! protocol is drawn on every frame.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;
use ratatui_image::Image;

use crate::tui::filmstrip_data::FrameKey;
use crate::tui::graphics::Lookup;

use crate::tui::model::rollouts::RolloutsState;
use crate::tui::theme::{Role, Theme};

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
    let lookup = st
        .image
        .lookup(id, (area.width, area.height), img, st.picker.as_ref());
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
