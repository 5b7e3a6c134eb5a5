//! The panel's pose layer section (override and additive) and the state machine section.

use super::{clip_combo, clip_names, error_label, joint_list};
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};
use egui::{RichText, Ui};

/// The override (masked) and additive layers over whatever plays.
pub(super) fn layers_section(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    if shown.character.clips.is_empty() {
        return;
    }
    let names = clip_names(shown.character);
    let joint_names = shown.character.skeleton.names().to_vec();
    let live = shown.layer_weights;
    let c = &mut *controls;
    egui::CollapsingHeader::new("Layers")
        .default_open(c.view.opens(PanelSection::Layers))
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.layers.layer_on, "Override layer");
                let combo = egui::ComboBox::from_label("layer clip");
                clip_combo(ui, combo, &names, &mut c.layers.layer_clip);
            });
            let selected = c.selected_joint;
            let add = "Add the selected joint";
            joint_list(
                ui,
                "mask: the subtrees of",
                "no joint",
                &joint_names,
                &mut c.layers.layer_roots,
                selected,
                (add, "Clear"),
            );
            ui.add(egui::Slider::new(&mut c.layers.layer_weight, 0.0..=1.0).text("Layer weight"));
            ui.add(
                egui::Slider::new(&mut c.layers.layer_half_life, 0.0..=1.0)
                    .text("Half-life (s)")
                    .fixed_decimals(2),
            );
            ui.label(RichText::new(format!("override weight now {:.3}", live.0)).weak());
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.layers.additive_on, "Additive layer");
                let combo = egui::ComboBox::from_label("additive clip");
                clip_combo(ui, combo, &names, &mut c.layers.additive_clip);
            });
            ui.add(
                egui::Slider::new(&mut c.layers.additive_weight, -1.0..=2.0)
                    .text("Additive weight"),
            );
            ui.label(
                RichText::new(format!(
                    "additive weight now {:.3} (difference from the clip's first frame)",
                    live.1
                ))
                .weak(),
            );
        });
}

/// The state machine: the current state, the transition in progress, and every parameter.
pub(super) fn graph_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    if let Some(e) = shown.graph_error {
        error_label(ui, &format!("State machine: {e}"));
    }
    let Some(machine) = shown.machine else {
        return;
    };
    ui.checkbox(&mut controls.layers.use_graph, "Drive by the state machine");
    // Its parameters drive nothing while it is off.
    let live = controls.layers.use_graph;
    let state = machine.state_name(machine.current_state()).to_owned();
    let transition = machine.transition().map(|(from, t)| {
        let kind = match t.spec {
            crate::graph::TransitionSpec::Crossfade { .. } => "crossfade",
            crate::graph::TransitionSpec::Inertialize { .. } => "inertialize",
        };
        (machine.state_name(from).to_owned(), kind, t.progress())
    });
    ui.label(RichText::new(format!("state: {state}")).strong());
    if let Some((from, kind, progress)) = transition {
        ui.add(egui::ProgressBar::new(progress).text(format!("{kind} from {from}")));
    }
    let params: Vec<(usize, crate::graph::ParamDef, f32)> = machine
        .graph
        .parameters
        .iter()
        .enumerate()
        .map(|(k, p)| (k, p.clone(), machine.value(k)))
        .collect();
    for (k, p, value) in params {
        match p.kind {
            crate::graph::ParamKind::Float { min, max } => {
                let mut v = value;
                if ui
                    .add_enabled(live, egui::Slider::new(&mut v, min..=max).text(&p.name))
                    .changed()
                {
                    commands.push(UiCommand::SetParameter(k, v));
                }
            }
            crate::graph::ParamKind::Bool => {
                let mut on = value != 0.0;
                if ui
                    .add_enabled(live, egui::Checkbox::new(&mut on, &p.name))
                    .changed()
                {
                    commands.push(UiCommand::SetParameter(k, f32::from(u8::from(on))));
                }
            }
            crate::graph::ParamKind::Trigger => {
                if ui.add_enabled(live, egui::Button::new(&p.name)).clicked() {
                    commands.push(UiCommand::SetParameter(k, 1.0));
                }
            }
        }
    }
}
