//! The egui side panel. It edits `viewer::Controls` in place and returns one-off actions as
//! `UiCommand`s; it knows nothing of windows or GPUs.

use egui::{Color32, RichText, Ui};

use crate::viewer::{Compared, Controls, PanelSection, Shown, UiCommand, Viewer};

mod drivers;
mod environment;
mod file;
mod joints;
mod layers;
pub mod legend;
mod matching;
mod ml;
mod mocap;
mod motion;
mod muscles;
mod over_time;
pub mod overlay;
mod physics;
mod playback;
mod record;
mod repair;
mod retarget;
mod skinning;
mod view;

use drivers::drivers_section;
use file::file_section;
use joints::{events_section, joints_section, problems_section, stats_section};
use layers::{graph_section, layers_section};
use matching::matching_section;
use ml::ml_section;
use mocap::external_section;
use motion::{motion_section, plot_section};
use muscles::muscles_section;
use physics::physics_section;
use playback::{blend_section, playback_section};
use record::record_section;
pub use skinning::paint_subtree;
use skinning::{ddm_section, per_joint_section};
pub use view::compared_name;
use view::{debug_section, morph_section, view_section};

/// Width of the side panel in points.
pub const PANEL_WIDTH: f32 = 330.0;
/// Sliders fit the panel with their value and label, inside a section too (a wider one would
/// widen the panel, and with it the next frame's sliders).
pub const SLIDER_WIDTH: f32 = 130.0;

/// One run of egui for the window's frame: the panel (`show`), then each skin joint's name over
/// the main 3D view when asked, placed with `clip_from_world` (last frame's camera, given the
/// view's aspect). Returns egui's output, the panel's commands and the rect left for the 3D view.
/// The window and the viewer's frame benchmark both run the panel through it.
pub fn run(
    ctx: &egui::Context,
    input: egui::RawInput,
    viewer: &mut Viewer,
    clip_from_world: Option<&dyn Fn(f32) -> glam::Mat4>,
) -> (egui::FullOutput, Vec<UiCommand>, egui::Rect) {
    let mut commands = Vec::new();
    let mut view_rect = egui::Rect::NOTHING;
    let output = ctx.run_ui(input, |ui| {
        let (c, rect) = show(ui, viewer);
        commands = c;
        view_rect = rect;
        if let (true, Some(clip_from_world)) =
            (viewer.controls.view.show_joint_names, clip_from_world)
        {
            // The names label the main (left, when split) view.
            let main = if viewer.controls.compared() != Compared::Off {
                let size = egui::vec2(rect.width() * 0.5, rect.height());
                egui::Rect::from_min_size(rect.min, size)
            } else {
                rect
            };
            let aspect = main.width() / main.height().max(1.0);
            let posed = (&viewer.character, &viewer.pose);
            overlay::paint_joint_names(ui, posed, clip_from_world(aspect), main);
        }
    });
    (output, commands, view_rect)
}

/// The whole viewer UI for one frame: the side panel, then joint names over the 3D view when
/// asked. Returns the commands to apply and the rect left for the 3D view.
pub fn show(ui: &mut Ui, viewer: &mut Viewer) -> (Vec<UiCommand>, egui::Rect) {
    let mut commands = Vec::new();
    let (controls, shown) = viewer.panel_parts();
    if controls.view.show_panel {
        egui::Panel::left("skinscope-panel")
            .resizable(true)
            .default_size(PANEL_WIDTH)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .auto_shrink([false, false])
                    .show(ui, |ui| panel(ui, controls, &shown, &mut commands));
            });
    }
    let view = ui.available_rect_before_wrap();
    // A split view compares (a crowd is never split).
    if controls.compared() != Compared::Off && controls.view.crowd == 0 {
        split_labels(ui, controls, view);
    }
    (commands, view)
}

/// Each half of the split view named by what it shows.
fn split_labels(ui: &Ui, c: &Controls, view: egui::Rect) {
    // The left half names what the right one varies: its clips or its skinning.
    let left = match c.compared() {
        Compared::OtherClips if c.debug.compressed => "the compressed clips".to_string(),
        Compared::OtherClips => "the raw clips".to_string(),
        Compared::OtherSkinning => c.skinning.method.label().to_string(),
        Compared::MlReference if c.ml_active() => "linear blend with the ML deformer".to_string(),
        Compared::MlReference => c.skinning.method.label().to_string(),
        Compared::Off | Compared::Palette(_) => String::new(),
    };
    // The ML deformer's corrective is named wherever it is drawn (both halves, but where the
    // right half is its reference).
    let ml = c.ml_active() && c.compared() != Compared::MlReference;
    let with_ml = |text: String| {
        if ml {
            format!("{text}, with the ML deformer")
        } else {
            text
        }
    };
    let left = with_ml(if left.is_empty() {
        format!("left: {} palette", c.view.palette.name())
    } else {
        format!("left: {} palette, {left}", c.view.palette.name())
    });
    let right = match c.compared() {
        Compared::Palette(_) | Compared::Off => with_ml(compared_name(c, c.compared())),
        Compared::OtherClips => with_ml(format!(
            "{} palette, {}",
            c.view.palette.name(),
            compared_name(c, Compared::OtherClips)
        )),
        other => format!(
            "{} palette, {}",
            c.view.palette.name(),
            compared_name(c, other)
        ),
    };
    for (side, x, text) in [
        ("left", view.left(), left),
        ("right", view.center().x, format!("right: {right}")),
    ] {
        egui::Area::new(ui.make_persistent_id(("split-label", side)))
            .fixed_pos(egui::pos2(x + 8.0, view.top() + 8.0))
            .interactable(false)
            .show(ui.ctx(), |ui| {
                ui.label(
                    RichText::new(text)
                        .color(Color32::WHITE)
                        .background_color(Color32::from_black_alpha(140)),
                );
            });
    }
}

/// The panel's sections.
pub fn panel(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    // Rows wrap and sliders fit the panel, so opening a section never widens it (clicks would
    // land on the neighbouring widget as it moved).
    ui.spacing_mut().slider_width = SLIDER_WIDTH;
    ui.heading("skinscope");
    // The section asked for at start is scrolled to, top of the panel, for its first layouts.
    let scroll_to = controls
        .view
        .open_section
        .filter(|o| o.scrolls_left > 0)
        .map(|o| o.section);
    let at = |ui: &mut Ui, section: PanelSection| {
        if scroll_to == Some(section) {
            ui.scroll_to_cursor(Some(egui::Align::TOP));
        }
    };
    let opens = |section| controls.view.opens(section);
    let (plot_open, problems_open) = (opens(PanelSection::Plot), opens(PanelSection::Problems));
    at(ui, PanelSection::File);
    file_section(ui, controls, shown, commands);
    ui.separator();
    at(ui, PanelSection::Playback);
    playback_section(ui, controls, shown, commands);
    ui.separator();
    at(ui, PanelSection::Blend);
    blend_section(ui, controls, shown, commands);
    at(ui, PanelSection::External);
    external_section(ui, controls, shown, commands);
    at(ui, PanelSection::Layers);
    layers_section(ui, controls, shown);
    at(ui, PanelSection::StateMachine);
    graph_section(ui, controls, shown, commands);
    at(ui, PanelSection::Plot);
    plot_section(ui, shown, plot_open);
    at(ui, PanelSection::OverTime);
    over_time::over_time_section(ui, controls, shown, commands);
    at(ui, PanelSection::Motion);
    motion_section(ui, controls, shown, commands);
    at(ui, PanelSection::Matching);
    matching_section(ui, controls, shown);
    at(ui, PanelSection::Drivers);
    drivers_section(ui, controls, shown, commands);
    at(ui, PanelSection::Muscles);
    muscles_section(ui, controls, shown, commands);
    at(ui, PanelSection::Ml);
    ml_section(ui, controls, commands);
    at(ui, PanelSection::Physics);
    physics_section(ui, controls, shown, commands);
    ui.separator();
    at(ui, PanelSection::View);
    view_section(ui, controls, shown, commands);
    at(ui, PanelSection::Environment);
    environment::environment_section(ui, controls, shown, commands);
    at(ui, PanelSection::Record);
    record_section(ui, controls, shown, commands);
    at(ui, PanelSection::PerJoint);
    per_joint_section(ui, controls, shown);
    at(ui, PanelSection::Ddm);
    ddm_section(ui, controls, shown);
    ui.separator();
    at(ui, PanelSection::Morphs);
    morph_section(ui, controls, shown);
    at(ui, PanelSection::Debug);
    debug_section(ui, controls, shown);
    at(ui, PanelSection::Check);
    repair::check_section(ui, controls, shown, commands);
    at(ui, PanelSection::Retarget);
    retarget::retarget_section(ui, controls, shown, commands);
    ui.separator();
    at(ui, PanelSection::Skeleton);
    joints_section(ui, controls, shown);
    ui.separator();
    at(ui, PanelSection::Stats);
    stats_section(ui, shown);
    at(ui, PanelSection::Events);
    events_section(ui, shown);
    at(ui, PanelSection::Problems);
    problems_section(ui, shown, problems_open);
    if let Some(open) = &mut controls.view.open_section {
        open.scrolls_left = open.scrolls_left.saturating_sub(1);
    }
}

/// An error in red, wrapped to the panel's width anywhere (paths have no spaces to break at).
pub(super) fn error_label(ui: &mut Ui, text: &str) {
    let mut job = egui::text::LayoutJob::single_section(
        text.to_owned(),
        egui::TextFormat::simple(
            egui::FontId::proportional(13.0),
            Color32::from_rgb(255, 110, 100),
        ),
    );
    job.wrap = egui::text::TextWrapping {
        max_width: ui.available_width(),
        break_anywhere: true,
        ..Default::default()
    };
    ui.add(egui::Label::new(job).wrap());
}

/// The character's clip names, in clip order.
pub(super) fn clip_names(character: &crate::character::Character) -> Vec<String> {
    let clips = character.clips.iter();
    clips.map(|c| c.clip.name().to_owned()).collect()
}

/// A drop-down of clips by name, selecting into `value`.
pub(super) fn clip_combo(ui: &mut Ui, combo: egui::ComboBox, names: &[String], value: &mut usize) {
    let shown = names.get(*value).cloned().unwrap_or_default();
    combo.selected_text(shown).show_ui(ui, |ui| {
        for (i, n) in names.iter().enumerate() {
            ui.selectable_value(value, i, n);
        }
    });
}

/// A list of joints by name (`title` then the names, or `empty`), with buttons that add the
/// selected joint and clear the list.
pub(super) fn joint_list(
    ui: &mut Ui,
    title: &str,
    empty: &str,
    names: &[String],
    list: &mut Vec<usize>,
    selected: Option<usize>,
    (add, clear): (&str, &str),
) {
    let shown: Vec<&str> = list
        .iter()
        .filter_map(|&j| names.get(j).map(String::as_str))
        .collect();
    let shown = if shown.is_empty() {
        empty.to_owned()
    } else {
        shown.join(", ")
    };
    ui.label(format!("{title} {shown}"));
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(selected.is_some(), egui::Button::new(add))
            .clicked()
            && let Some(j) = selected
            && !list.contains(&j)
        {
            list.push(j);
        }
        if ui.button(clear).clicked() {
            list.clear();
        }
    });
}

/// A drop-down of joints by name, selecting into `value` ("none" while unset).
pub(super) fn joint_combo(ui: &mut Ui, label: &str, names: &[String], value: &mut Option<usize>) {
    let shown = value
        .and_then(|j| names.get(j).cloned())
        .unwrap_or_else(|| "none".into());
    egui::ComboBox::from_label(label)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (j, n) in names.iter().enumerate() {
                ui.selectable_value(value, Some(j), n);
            }
        });
}

/// A path typed into a text field, and the button beside it that takes it: the trimmed path
/// when the button is clicked (the button is off while the field is empty).
fn path_field(
    ui: &mut Ui,
    path: &mut String,
    hint: &str,
    button: &str,
) -> Option<std::path::PathBuf> {
    ui.add(
        egui::TextEdit::singleline(path)
            .hint_text(hint)
            .desired_width(180.0),
    );
    let path = path.trim();
    ui.add_enabled(!path.is_empty(), egui::Button::new(button))
        .clicked()
        .then(|| path.into())
}
