//! The panel's physics section: the ragdoll off, powered or limp, its stiffness, the weights of
//! the subtrees it takes, the push an Alt+click gives, and a reset.

use super::error_label;
use crate::physics::{MAX_STIFFNESS, PhysicsMode};
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};
use egui::{RichText, Ui};

pub(super) fn physics_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    let names = shown.character.skeleton.names().to_vec();
    let c = &mut *controls;
    egui::CollapsingHeader::new("Physics (ragdoll)")
        .default_open(c.view.opens(PanelSection::Physics))
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut c.physics.input.mode, None, "off");
                ui.radio_value(
                    &mut c.physics.input.mode,
                    Some(PhysicsMode::Powered),
                    "powered",
                );
                ui.radio_value(&mut c.physics.input.mode, Some(PhysicsMode::Limp), "limp");
            });
            ui.add_enabled(
                c.physics.input.mode == Some(PhysicsMode::Powered),
                egui::Slider::new(&mut c.physics.input.stiffness, 0.0..=MAX_STIFFNESS)
                    .text("Stiffness (1/s)"),
            );
            if c.physics.input.weights.is_empty() {
                ui.label("weights: the whole body at 1");
            } else {
                ui.label("weights (0: the animation, 1: the physics):");
            }
            let mut remove = None;
            for (k, (joint, weight)) in c.physics.input.weights.iter_mut().enumerate() {
                ui.horizontal_wrapped(|ui| {
                    let name = names.get(*joint).map_or("?", String::as_str);
                    ui.add(egui::Slider::new(weight, 0.0..=1.0).text(name));
                    if ui.small_button("x").clicked() {
                        remove = Some(k);
                    }
                });
            }
            if let Some(k) = remove {
                c.physics.input.weights.remove(k);
            }
            ui.horizontal_wrapped(|ui| {
                let selected = c.selected_joint;
                if ui
                    .add_enabled(
                        selected.is_some(),
                        egui::Button::new("Weigh the selected subtree"),
                    )
                    .on_hover_text(
                        "its subtree at its own weight; joints under no listed subtree weigh 0",
                    )
                    .clicked()
                    && let Some(j) = selected
                    && !c.physics.input.weights.iter().any(|w| w.0 == j)
                {
                    c.physics.input.weights.push((j, 1.0));
                }
                if ui.button("Whole body").clicked() {
                    c.physics.input.weights.clear();
                }
            });
            ui.add(
                egui::Slider::new(&mut c.physics.push_impulse, 0.0..=200.0).text("Push (kg m/s)"),
            );
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button("Reset ragdoll")
                    .on_hover_text("the bodies back where the animation is")
                    .clicked()
                {
                    commands.push(UiCommand::ResetPhysics);
                }
                ui.label(RichText::new("Alt+click the character to push it").weak());
            });
            if let Some(r) = shown.physics.ragdoll() {
                let mass: f32 = r.bodies().map(|b| b.mass).sum();
                ui.label(format!(
                    "{} bodies, {mass:.1} kg, {} steps at 60 Hz",
                    r.specs().len(),
                    shown.physics.steps
                ));
            }
            if let Some(error) = &shown.physics.error {
                error_label(ui, error);
            }
        });
}
