//! The panel's legend of the current colouring, under the "Colour by" choice (drawn by
//! `draw::legend`, as the headless `render` draws it into its image).

use egui::Ui;

use crate::draw::legend::draw;
use crate::viewer::{Controls, Shown};

/// The legend of the current colouring (nothing for materials).
pub fn show(ui: &mut Ui, controls: &Controls, shown: &Shown<'_>) {
    let c = controls;
    let names = shown.character.skeleton.names();
    let selected = c
        .selected_joint
        .and_then(|j| names.get(j))
        .map(String::as_str);
    let compared = super::compared_name(c, c.compared_for_colours());
    let legend = crate::debug::colors::legend_in(
        shown.character,
        c.debug.color_view,
        (selected, &compared),
        None,
        c.debug.color_range,
    );
    if let Some(legend) = legend {
        draw(ui, &legend);
    }
}
