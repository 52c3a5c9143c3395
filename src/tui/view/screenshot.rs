//! A trial's screenshot with ratatui-image: the terminal's graphics protocol (Kitty, Sixel,
//! iTerm2) when the picker queried at start-up found one, half-blocks otherwise (and always in
//! tests, where no terminal is queried). The image is encoded once per trial and area, then the
//! cached protocol is drawn on every frame.

use ratatui::layout::{Rect, Size};
use ratatui::text::Line;
use ratatui::Frame;
use ratatui_image::picker::Picker;
use ratatui_image::{Image, Resize};

use crate::tui::model::rollouts::RolloutsState;
use crate::tui::theme::{Role, Theme};

/// Draws `img` (trial `id`) fitted into `area`.
pub fn draw(
    f: &mut Frame<'_>,
    area: Rect,
    st: &RolloutsState,
    id: i64,
    img: &image::DynamicImage,
    theme: &Theme,
) {
    if area.width < 2 || area.height < 2 {
        return;
    }
    let key = (area.width, area.height);
    let mut cache = st.image.0.borrow_mut();
    let fresh = cache
        .as_ref()
        .is_some_and(|(i, k, _)| *i == id && *k == key);
    if !fresh {
        let picker = st.picker.clone().unwrap_or_else(Picker::halfblocks);
        let size = Size::new(area.width, area.height);
        match picker.new_protocol(img.clone(), size, Resize::Fit(None)) {
            Ok(p) => *cache = Some((id, key, p)),
            Err(e) => {
                *cache = None;
                f.render_widget(
                    Line::styled(
                        format!("screenshot: cannot encode: {e}"),
                        theme.style(Role::Alert),
                    ),
                    area,
                );
                return;
            }
        }
    }
    if let Some((_, _, p)) = cache.as_ref() {
        f.render_widget(Image::new(p), area);
    }
}
