//! The panel's per-joint skinning section (under weight-blended skinning): which joints skin by
//! dual quaternions, painted per subtree on the joint tree, or chosen as "auto" (from the parents
//! of the joints the clips twist by more than 60 degrees) or all one way.

use std::sync::Arc;

use egui::{RichText, Ui};

use crate::anim::{SkinningMethod, subtree_methods};
use crate::viewer::{Controls, Shown};

pub(super) fn per_joint_section(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    let used = controls.skinning.method == SkinningMethod::Blended
        || (controls.compared() == crate::viewer::Compared::OtherSkinning
            && controls.right_skinning() == SkinningMethod::Blended);
    if !used {
        return;
    }
    let c = shown.character;
    let skeleton = &c.skeleton;
    let n = skeleton.joint_count();
    egui::CollapsingHeader::new("Per-joint skinning")
        .default_open(true)
        .show(ui, |ui| {
            let current: Vec<f32> = match &controls.skinning.joint_methods {
                Some(m) if m.len() == n => m.to_vec(),
                _ => vec![0.0; n],
            };
            let mut next: Option<Vec<f32>> = None;
            ui.horizontal_wrapped(|ui| {
                if ui
                    .button("Auto")
                    .on_hover_text(format!(
                        "dual quaternions on the joints the clips twist about their bone by more than {} degrees",
                        crate::pose::AUTO_TWIST_DEGREES
                    ))
                    .clicked()
                {
                    next = Some(crate::pose::auto_methods(c));
                }
                if ui.button("All linear blend").clicked() {
                    next = Some(vec![0.0; n]);
                }
                if ui.button("All dual quaternion").clicked() {
                    next = Some(vec![1.0; n]);
                }
            });
            let dqs = current.iter().filter(|&&m| m > 0.0).count();
            ui.label(
                RichText::new(format!(
                    "{dqs} of {n} joints by dual quaternions; a tick paints the joint's subtree"
                ))
                .weak(),
            );
            // Depths in one pass (parents come first): a deep skeleton costs linear time, and
            // only the rows in view are laid out.
            let mut depth = vec![0usize; n];
            for j in 0..n {
                depth[j] = skeleton.parent(j).map_or(0, |p| depth[p] + 1);
            }
            let row = ui.spacing().interact_size.y;
            egui::ScrollArea::vertical()
                .id_salt("per-joint skinning")
                .max_height(220.0)
                .show_rows(ui, row, n, |ui, rows| {
                    for j in rows {
                        ui.horizontal(|ui| {
                            ui.add_space(depth[j].min(40) as f32 * 10.0);
                            let mut on = current[j] > 0.0;
                            if ui.checkbox(&mut on, &skeleton.names()[j]).changed() {
                                next = Some(paint_subtree(skeleton, &current, j, on));
                            }
                        });
                    }
                });
            if let Some(next) = next {
                controls.skinning.joint_methods = Some(Arc::from(next));
            }
        });
}

/// `methods` with joint `root` and every joint below it set to dual quaternions (`on`) or
/// linear blend.
pub fn paint_subtree(
    skeleton: &crate::anim::Skeleton,
    methods: &[f32],
    root: usize,
    on: bool,
) -> Vec<f32> {
    let subtree = subtree_methods(skeleton, &[root]);
    methods
        .iter()
        .zip(subtree)
        .map(|(&m, inside)| {
            if inside > 0.0 {
                if on { 1.0 } else { 0.0 }
            } else {
                m
            }
        })
        .collect()
}

/// Direct delta mush's parameters and its precomputation's progress or result, when the
/// skinning shown uses it.
pub(super) fn ddm_section(ui: &mut Ui, controls: &mut Controls, shown: &Shown<'_>) {
    use crate::viewer::DdmStatus;
    if shown.ddm_status == DdmStatus::Off {
        return;
    }
    egui::CollapsingHeader::new("Direct delta mush")
        .default_open(true)
        .show(ui, |ui| {
            let p = &mut controls.skinning.ddm;
            ui.add(egui::Slider::new(&mut p.iterations, 1..=200).text("iterations p"));
            ui.add(egui::Slider::new(&mut p.lambda, 0.1..=100.0).logarithmic(true).text("λ"))
                .on_hover_text("the smoothing of Ψ: a dense mesh needs more");
            let most = (p.lambda * 0.99).max(0.01);
            ui.add(egui::Slider::new(&mut p.kappa, 0.01..=most).logarithmic(true).text("κ"))
                .on_hover_text("the smoothing of the weights (less than λ)");
            ui.add(egui::Slider::new(&mut p.alpha, 0.0..=0.99).text("α"));
            ui.add(egui::Slider::new(&mut p.cap, 1..=crate::deform::ddm::MAX_CAP).text("joints kept"));
            if ui.button("Defaults (libigl's)").clicked() {
                *p = crate::deform::DdmParams::default();
            }
            match &shown.ddm_status {
                DdmStatus::Precomputing(f) => {
                    ui.add(egui::ProgressBar::new(*f).text(format!("precomputing Ω: {:.0}%", f * 100.0)));
                    ui.label(RichText::new("linear blend until it is ready").weak());
                }
                DdmStatus::Ready(s) => {
                    ui.label(format!(
                        "Ω: {} entries ({:.1} MB), at most {} of {} joints a vertex; {} vertices welded to {}",
                        s.entries,
                        s.bytes as f64 / 1e6,
                        s.most_per_vertex,
                        s.cap,
                        s.vertices,
                        s.welded
                    ));
                }
                DdmStatus::Failed(e) => super::error_label(ui, e),
                DdmStatus::Off => {}
            }
        });
}
