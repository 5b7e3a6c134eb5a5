//! The panel's root motion and IK section, and the joint-angle plot.

use super::{joint_combo, joint_list};
use crate::viewer::{Controls, PanelSection, Shown, UiCommand};
use egui::{RichText, Ui};

/// Root motion, the movement controller, foot IK and reach IK.
pub(super) fn motion_section(
    ui: &mut Ui,
    controls: &mut Controls,
    shown: &Shown<'_>,
    commands: &mut Vec<UiCommand>,
) {
    use crate::graph::MoveMode;
    let names = shown.character.skeleton.names().to_vec();
    let height = shown.derived.height;
    let placement = shown.placement;
    let driven_rate = shown.driven_rate;
    let slide: Vec<[f64; 2]> = shown.slide_plot.iter().copied().collect();
    let c = &mut *controls;
    egui::CollapsingHeader::new("Root motion and IK")
        .default_open(c.view.opens(PanelSection::Motion))
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label("Root motion");
                ui.radio_value(&mut c.motion.move_mode, MoveMode::Authored, "as authored");
                ui.radio_value(&mut c.motion.move_mode, MoveMode::InPlace, "in place");
            });
            ui.horizontal_wrapped(|ui| {
                ui.radio_value(&mut c.motion.move_mode, MoveMode::Applied, "applied");
                ui.radio_value(&mut c.motion.move_mode, MoveMode::Driven, "driven");
            });
            joint_combo(ui, "Root-motion joint", &names, &mut c.motion.root_joint);
            ui.add_enabled_ui(c.motion.move_mode == MoveMode::Driven, |ui| {
                ui.add(
                    egui::Slider::new(&mut c.motion.drive_speed, 0.0..=3.0 * height)
                        .text("Speed (units/s)"),
                );
                ui.horizontal_wrapped(|ui| {
                    if ui.button("Turn left").clicked() {
                        commands.push(UiCommand::Turn(15.0));
                    }
                    if ui.button("Turn right").clicked() {
                        commands.push(UiCommand::Turn(-15.0));
                    }
                    if let Some(rate) = driven_rate {
                        ui.label(format!("playback {rate:.2}x"));
                    }
                });
            });
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.motion.show_scene, "Ground and trail");
                ui.checkbox(&mut c.motion.follow_camera, "Camera follows");
                if ui.button("Reset position").clicked() {
                    commands.push(UiCommand::ResetPosition);
                }
            });
            let p = placement.position;
            ui.monospace(format!(
                "at {:.3} {:.3} {:.3}, heading {:.1} deg",
                p.x,
                p.y,
                p.z,
                placement.yaw.to_degrees()
            ));
            ui.separator();
            ui.checkbox(&mut c.motion.foot_ik, "Foot IK (feet on the ground)");
            let selected = c.selected_joint;
            let none = "none found: add them by hand";
            let add = "Add the selected joint as a leg";
            joint_list(
                ui,
                "legs ending at",
                none,
                &names,
                &mut c.motion.leg_ends,
                selected,
                (add, "Clear legs"),
            );
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                ui.checkbox(&mut c.motion.reach_ik, "Reach IK");
                joint_combo(ui, "chain end", &names, &mut c.motion.reach_end);
            });
            ui.horizontal_wrapped(|ui| {
                ui.label("target");
                let speed = f64::from(height) * 0.005;
                let axes = [
                    ("x", &mut c.motion.reach_target.x),
                    ("y", &mut c.motion.reach_target.y),
                    ("z", &mut c.motion.reach_target.z),
                ];
                for (axis, v) in axes {
                    let label = ui.label(axis);
                    ui.add(egui::DragValue::new(v).speed(speed).max_decimals(3))
                        .labelled_by(label.id);
                }
            });
            let mut follows = c.motion.reach_follows;
            if ui
                .checkbox(&mut follows, "target follows the character")
                .on_hover_text("the target's x, y, z are then in the character's frame (its position and heading); off, in the world")
                .changed()
            {
                commands.push(UiCommand::ReachFollows(follows));
            }
            ui.label(RichText::new("ctrl+drag in the view moves the target").weak());
            ui.separator();
            ui.label("Fastest planted foot (units/s)");
            let points: egui_plot::PlotPoints = slide.into_iter().collect();
            egui_plot::Plot::new("foot-slide")
                .height(100.0)
                .allow_scroll(false)
                .allow_drag(false)
                .allow_zoom(false)
                .x_axis_label("s")
                .show(ui, |plot| {
                    plot.line(egui_plot::Line::new("slide", points));
                });
        });
}

/// The plotted joint's rotation angle over the last seconds: a crossfade and an
/// inertialization of the same switch can be compared.
pub(super) fn plot_section(ui: &mut Ui, shown: &Shown<'_>, opened: bool) {
    let Some(joint) = shown.plot_joint else {
        return;
    };
    let name = &shown.character.skeleton.names()[joint];
    egui::CollapsingHeader::new(format!("Rotation of {name} (degrees)"))
        .default_open(opened)
        .show(ui, |ui| {
            let points: egui_plot::PlotPoints = shown.angle_plot.iter().copied().collect();
            egui_plot::Plot::new("joint-angle")
                .height(120.0)
                .allow_scroll(false)
                .allow_drag(false)
                .allow_zoom(false)
                .x_axis_label("s")
                .show(ui, |plot| {
                    plot.line(egui_plot::Line::new("angle", points));
                });
        });
}
