//! A BVH opened on its own: a character that is only its skeleton (one skin over every joint,
//! bind pose its rest pose) and its take as a clip, without a mesh. The viewer draws its bones;
//! every posing command poses it as it poses a file's character.

use std::path::Path;

use glam::Mat4;

use super::ImportError;
use crate::anim::{LocalPose, ModelPose, Skin, local_to_model};
use crate::character::{Character, ClipData, Problem, SkinData};

/// The BVH at `path` (read within `reach`) as a skeleton-only character.
pub fn bvh_character(path: &Path, reach: &super::Reach) -> Result<Character, ImportError> {
    let refuse = |message: String| ImportError {
        file: path.to_path_buf(),
        errors: vec![Problem::new("", message)],
        warnings: Vec::new(),
    };
    let bvh = super::bvh::load_within(path, reach).map_err(|e| {
        refuse(if e.line > 0 {
            format!("line {}: {}", e.line, e.message)
        } else {
            e.message
        })
    })?;
    let skeleton = bvh.skeleton;
    let n = skeleton.joint_count();
    let mut rest = ModelPose::new(&skeleton);
    local_to_model(&skeleton, &LocalPose::rest(&skeleton), &mut rest)
        .map_err(|e| refuse(e.to_string()))?;
    let joint_from_bind = rest
        .as_slice()
        .iter()
        .map(|m| Mat4::from(*m).inverse())
        .collect();
    let skin = Skin::all_joints(&skeleton, joint_from_bind).map_err(|e| refuse(e.to_string()))?;
    let palette_parents = SkinData::find_palette_parents(&skin, &skeleton);
    let name = path
        .file_name()
        .map_or_else(|| "bvh".to_string(), |s| s.to_string_lossy().into_owned());
    let skin = SkinData {
        name: "skeleton".into(),
        index: 0,
        skin,
        ordinal_of_palette: (0..n).collect(),
        palette_of_ordinal: (0..n).collect(),
        root_joints: (0..n).filter(|&j| skeleton.parent(j).is_none()).collect(),
        palette_parents,
        has_inverse_binds: true,
        non_joint_ancestors: Vec::new(),
    };
    Ok(Character {
        name,
        node_of_skeleton_joint: (0..n).collect(),
        skeleton_joint_of_node: (0..n).collect(),
        skins: vec![skin],
        meshes: Vec::new(),
        instances: Vec::new(),
        clips: vec![ClipData {
            index: 0,
            clip: bvh.clip,
            morph_tracks: Vec::new(),
            channels: Vec::new(),
            compressed: None,
        }],
        warnings: Vec::new(),
        notes: Vec::new(),
        scenes: vec!["scene 0".into()],
        scene: 0,
        cameras: Vec::new(),
        driver_extras: Vec::new(),
        skeleton,
    })
}
