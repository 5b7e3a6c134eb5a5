//! Text over the 3D view: each skin joint's name beside it.

use glam::{Mat4, Vec3};

use crate::character::Character;
use crate::pose::CharacterPose;

/// Each skin joint's name beside it, over the 3D view `view` seen through `clip_from_world`.
pub fn paint_joint_names(
    ui: &egui::Ui,
    (character, pose): (&Character, &CharacterPose),
    clip_from_world: Mat4,
    view: egui::Rect,
) {
    let painter = ui.ctx().layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        ui.scope_id().with("joint-names"),
    ));
    let painter = painter.with_clip_rect(view);
    let font = egui::FontId::proportional(11.0);
    let model = pose.model.as_slice();
    let names = character.skeleton.names();
    let mut labels = Vec::new();
    for skin in &character.skins {
        for joint in (0..skin.skin.len()).filter_map(|p| skin.skin.joint(p)) {
            let p = Vec3::from(model[joint].translation);
            let clip = clip_from_world * p.extend(1.0);
            if clip.w <= 0.0 {
                continue;
            }
            let ndc = clip.truncate() / clip.w;
            let pos = egui::pos2(
                view.left() + (ndc.x + 1.0) * 0.5 * view.width() + 4.0,
                view.top() + (1.0 - ndc.y) * 0.5 * view.height() - 6.0,
            );
            let galley = painter.layout_no_wrap(
                names[joint].clone(),
                font.clone(),
                egui::Color32::from_rgb(255, 240, 180),
            );
            let rect = egui::Rect::from_min_size(
                pos - egui::vec2(0.0, galley.size().y * 0.5),
                galley.size(),
            );
            labels.push((rect, galley));
        }
    }
    let rects: Vec<egui::Rect> = labels.iter().map(|(r, _)| *r).collect();
    for ((rect, galley), shown) in labels.into_iter().zip(place_labels(&rects)) {
        if shown {
            painter.galley(rect.min, galley, egui::Color32::WHITE);
        }
    }
}

/// Which labels to draw, in order: each one that does not overlap a label already drawn (so
/// names of joints that sit close together on screen do not pile up).
pub fn place_labels(rects: &[egui::Rect]) -> Vec<bool> {
    let mut placed: Vec<egui::Rect> = Vec::new();
    rects
        .iter()
        .map(|r| {
            let free = placed.iter().all(|p| !p.intersects(*r));
            if free {
                placed.push(*r);
            }
            free
        })
        .collect()
}
