//! The panel's joint tree, frame statistics, event log and the file's problems.

use super::error_label;
use crate::viewer::{Controls, PanelSection, Shown};
use egui::{RichText, Ui};

pub(super) fn joints_section(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    let skeleton = &shown.character.skeleton;
    let opened = controls.view.opens(PanelSection::Skeleton);
    let selected = &mut controls.selected_joint;
    egui::CollapsingHeader::new(format!("Skeleton ({} nodes)", skeleton.joint_count()))
        .default_open(opened)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("joints")
                .max_height(220.0)
                .show(ui, |ui| {
                    for root in
                        (0..skeleton.joint_count()).filter(|&j| skeleton.parent(j).is_none())
                    {
                        joint_tree(ui, skeleton, root, selected);
                    }
                });
        });
    if let Some(j) = *selected {
        let local = shown.pose.local().as_slice().get(j);
        let model = shown.pose.model.as_slice().get(j);
        if let (Some(l), Some(m)) = (local, model) {
            ui.label(RichText::new(&skeleton.names()[j]).strong());
            let (axis, angle) = l.rotation.to_axis_angle();
            ui.monospace(format!(
                "local  T {:.3} {:.3} {:.3}\n       R {:.1} deg about ({:.2} {:.2} {:.2})\n       S {:.3} {:.3} {:.3}",
                l.translation.x, l.translation.y, l.translation.z, angle.to_degrees(), axis.x, axis.y, axis.z, l.scale.x, l.scale.y, l.scale.z
            ));
            let t = m.translation;
            ui.monospace(format!("model  T {:.3} {:.3} {:.3}", t.x, t.y, t.z));
        }
        bind_readouts(ui, shown, j);
    }
}

/// The joint's inverse bind in each skin beside the inverse of its rest transform, and their
/// largest difference (a broken inverse bind reads off here).
fn bind_readouts(ui: &mut Ui, shown: &Shown<'_>, joint: usize) {
    use crate::debug::readout::{bind_readouts, matrix_rows};
    for r in bind_readouts(shown.character, joint) {
        ui.label(format!("skin {:?}, palette {}", r.skin, r.palette));
        let (file, rest) = (matrix_rows(&r.inverse_bind), matrix_rows(&r.rest_inverse));
        egui::Grid::new(("bind readout", joint, r.palette, &r.skin)).show(ui, |ui| {
            ui.label(RichText::new("inverse bind").strong());
            ui.label(RichText::new("rest, inverted").strong());
            ui.end_row();
            for (a, b) in file.iter().zip(&rest) {
                ui.monospace(a);
                ui.monospace(b);
                ui.end_row();
            }
        });
        let text = format!("largest difference {:.4}", r.difference);
        if r.difference > 1e-3 {
            ui.label(RichText::new(text).color(ui.visuals().warn_fg_color))
                .on_hover_text("the inverse bind is not the rest pose's: a rest pose that differs from the bind pose (legal), or a broken inverse bind (check says which; fix recomputes it)");
        } else {
            ui.label(text);
        }
    }
}

pub(super) fn joint_tree(
    ui: &mut Ui,
    skeleton: &crate::anim::Skeleton,
    joint: usize,
    selected: &mut Option<usize>,
) {
    let children: Vec<usize> = (joint + 1..skeleton.joint_count())
        .filter(|&c| skeleton.parent(c) == Some(joint))
        .collect();
    let name = &skeleton.names()[joint];
    let is_selected = *selected == Some(joint);
    if children.is_empty() {
        if ui.selectable_label(is_selected, name).clicked() {
            *selected = if is_selected { None } else { Some(joint) };
        }
        return;
    }
    let id = ui.make_persistent_id(("joint", joint));
    egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, joint < 8)
        .show_header(ui, |ui| {
            if ui.selectable_label(is_selected, name).clicked() {
                *selected = if is_selected { None } else { Some(joint) };
            }
        })
        .body(|ui| {
            for c in children {
                joint_tree(ui, skeleton, c, selected);
            }
        });
}

pub(super) fn stats_section(ui: &mut Ui, shown: &Shown<'_>) {
    let s = shown.stats;
    let joints: usize = shown.character.skins.iter().map(|s| s.skin.len()).sum();
    let skinned = match s.skin_pass_ran {
        None => "in the vertex shader",
        Some(true) => "by the compute pass",
        Some(false) => "by the compute pass (unchanged: not run)",
    };
    let cpu = s.cpu;
    ui.monospace(format!(
        "{:.0} fps, frame {:.2} ms, pose {:.3} ms\nCPU {:.2} ms a frame: panel {:.2}, pose {:.2},\n  overlays {:.2}, uploads {:.2}\n{} joints, {} vertices\npalette upload {} bytes\nskinned {skinned}\n({})",
        s.fps,
        s.frame_ms,
        s.pose_ms,
        cpu.total_ms,
        cpu.panel_ms,
        cpu.pose_ms,
        cpu.overlay_ms,
        cpu.upload_ms,
        joints,
        shown.character.vertex_count(),
        s.palette_bytes,
        s.skin_pass_why
    ));
}

pub(super) fn events_section(ui: &mut Ui, shown: &Shown<'_>) {
    egui::CollapsingHeader::new("Events")
        .default_open(true)
        .show(ui, |ui| {
            if shown.event_log.is_empty() {
                ui.label(RichText::new("none fired yet").weak());
            }
            for e in shown.event_log {
                ui.monospace(format!("{:<12} {:.3} s  {}", e.name, e.time_secs, e.clip));
            }
        });
}

pub(super) fn problems_section(ui: &mut Ui, shown: &Shown<'_>, opened: bool) {
    let warnings = &shown.character.warnings;
    if warnings.is_empty() && shown.load_error.is_none() {
        return;
    }
    egui::CollapsingHeader::new(format!(
        "Import problems ({})",
        warnings.len() + usize::from(shown.load_error.is_some())
    ))
    .default_open(opened || shown.load_error.is_some())
    .show(ui, |ui| {
        if let Some(e) = shown.load_error {
            error_label(ui, e);
        }
        for w in warnings {
            ui.label(format!("warning {w}"));
        }
    });
}
