//! Broken inverse binds recomputed from the rest pose.
//!
//! `check` names each joint whose inverse bind disagrees with the skeleton (its bind entry is
//! not the skin's common one and no rest pose explains the difference). Its repaired inverse
//! bind makes its bind entry the common one:
//! `joint_from_bind = (mesh_from_world * world_from_joint)^-1 * common`, with the joint's world
//! transform in the rest pose (the file's node transforms). Where the file's inverse binds were
//! right, that is what they were; the joints `check` finds sound keep theirs to the bit.

use glam::Mat4;

use super::{Repair, RepairKind};
use crate::character::Character;
use crate::debug::check::CheckReport;
use crate::import::document::Document;
use crate::pose::{CharacterPose, PaletteMode, PoseRequest};

pub(super) fn repair(
    document: &mut Document,
    character: &Character,
    report: &CheckReport,
) -> Result<Vec<Repair>, String> {
    let mut pose = CharacterPose::new(character);
    pose.evaluate(character, &PoseRequest::rest(PaletteMode::Bind))
        .map_err(|e| format!("the rest pose cannot be posed: {e}"))?;
    let mut repairs = Vec::new();
    let mut done = Vec::new();
    for skin_check in &report.skins {
        let s = skin_check.index;
        if skin_check.broken_inverse_binds.is_empty() || done.contains(&s) {
            continue;
        }
        done.push(s);
        let Some(skin) = character.skins.iter().find(|k| k.index == s) else {
            continue;
        };
        let Some(instance) = character
            .instances
            .iter()
            .position(|i| i.node == skin_check.mesh_node)
        else {
            continue;
        };
        let pointer = format!("/skins/{s}/inverseBindMatrices");
        let Some(accessor) = document.json["skins"][s]["inverseBindMatrices"].as_u64() else {
            continue;
        };
        let mut matrices = document
            .read(accessor as usize)
            .map_err(|e| e.to_string())?;
        if matrices.len() != 16 * skin.ordinal_of_palette.len() {
            return Err(format!(
                "{pointer}: {} matrices for {} joints",
                matrices.len() / 16,
                skin.ordinal_of_palette.len()
            ));
        }
        let common = Mat4::from_cols_array(&skin_check.common_matrix);
        let mesh_from_world = pose.world_from_mesh[instance].inverse();
        let mut names = Vec::new();
        for &k in &skin_check.broken_inverse_binds {
            let joint = skin.skin.joint(skin.palette_of_ordinal[k]).unwrap_or(0);
            let world_from_joint = Mat4::from(pose.model.as_slice()[joint]);
            let ibm = (mesh_from_world * world_from_joint).inverse() * common;
            matrices[16 * k..16 * k + 16].copy_from_slice(&ibm.to_cols_array());
            names.push(character.skeleton.names()[joint].clone());
        }
        let new = document.push_floats(&matrices, "MAT4", false);
        document.json["skins"][s]["inverseBindMatrices"] = serde_json::json!(new);
        repairs.push(Repair {
            kind: RepairKind::InverseBinds,
            pointer: format!("/skins/{s}"),
            message: format!(
                "recomputed {} inverse bind matrices from the rest pose: {}",
                names.len(),
                names.join(", ")
            ),
            vertices: 0,
            joints: names,
            largest_weight_change: 0.0,
        });
    }
    Ok(repairs)
}
