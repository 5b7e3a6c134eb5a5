//! Clips retargeted onto a character written into its own file: each source's clips
//! (`clips_from`, with a retarget plan) added to the document as glTF animations, keyed as the
//! retarget keyed them (at the source's rate), everything else in the file kept.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::anim::{Channel, Clip, Interpolation, JointMatch};
use crate::character::Character;
use crate::clips_from::{ClipsFromError, clips_from};
use crate::document::Document;
use crate::retarget_plan::RetargetPlan;

/// One source's part of a retarget into a file.
#[derive(Clone, Debug, PartialEq)]
pub struct AddedFrom {
    pub file: PathBuf,
    /// The clips added.
    pub clips: Vec<AddedClip>,
    /// Which of the character's joints the source drives.
    pub matched: usize,
    pub unmatched: Vec<String>,
}

/// One clip added.
#[derive(Clone, Debug, PartialEq)]
pub struct AddedClip {
    /// Its name in the file.
    pub name: String,
    /// Keys written, over every track.
    pub keys: usize,
    /// With the keys reduced: the largest virtual-vertex error measured against the clip keyed
    /// at the source's rate, in the file's units.
    pub error: Option<f32>,
}

/// How the added clips are keyed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Keys {
    /// At the source's rate (a BVH's frames, a glTF clip's keys).
    #[default]
    SourceRate,
    /// With the keys dropped that interpolation reproduces within the compression error bound
    /// (`pose::compression_settings`: 1e-4 of the character's height by default, at each
    /// joint's skin reach), or within this bound in the file's units.
    Reduced(Option<f32>),
}

/// Adds every clip of `sources` (BVH, glTF or GLB files, read within `reach`), retargeted onto
/// `character` (the file `document` holds) through `plan`, to `document` as animations keyed as
/// `keys` says. A name taken already (by the file or an earlier source) gets its file's name
/// after it.
pub fn add_retargeted(
    document: &mut Document,
    character: &Character,
    sources: &[PathBuf],
    plan: Option<&RetargetPlan>,
    keys: Keys,
    reach: &crate::Reach,
) -> Result<Vec<AddedFrom>, ClipsFromError> {
    let bound = match keys {
        Keys::SourceRate => None,
        Keys::Reduced(tolerance) => Some(crate::pose::compression_settings(character, tolerance)),
    };
    let mut growing = character.clone();
    let mut added = Vec::new();
    for file in sources {
        let (clips, matched): (_, JointMatch) = clips_from(file, &growing, plan, reach)?;
        let mut names = Vec::new();
        for data in &clips {
            let mut clip = without_still_tracks(&data.clip, &character.skeleton);
            let mut error = None;
            if let Some(settings) = &bound {
                let (reduced, e) = crate::anim::reduce_clip(&character.skeleton, &clip, settings);
                (clip, error) = (reduced, Some(e));
            }
            for track in clip.tracks() {
                let node = character.node_of_skeleton_joint[track.joint];
                matrix_to_trs(document, node);
            }
            push_animation(document, &clip, &character.node_of_skeleton_joint);
            let keys = clip.tracks().iter().map(|t| t.channel.times().len()).sum();
            names.push(AddedClip {
                name: data.clip.name().to_string(),
                keys,
                error,
            });
        }
        growing.clips.extend(clips);
        added.push(AddedFrom {
            file: file.clone(),
            clips: names,
            matched: matched.matched.len(),
            unmatched: matched.unmatched,
        });
    }
    Ok(added)
}

/// `clip` without the tracks that hold the joint at its rest value throughout (an armature node
/// of the same name on both sides): they play as no track does.
fn without_still_tracks(clip: &Clip, skeleton: &crate::anim::Skeleton) -> Clip {
    let tracks = clip.tracks().iter().filter(|t| {
        let rest = &skeleton.rest()[t.joint];
        match &t.channel {
            Channel::Rotation(k) => !k
                .values()
                .iter()
                .all(|q| q.dot(rest.rotation).abs() > 1.0 - 1e-7),
            Channel::Translation(k) => !k
                .values()
                .iter()
                .all(|v| v.distance(rest.translation) < 1e-6),
            Channel::Scale(k) => !k.values().iter().all(|v| v.distance(rest.scale) < 1e-6),
        }
    });
    Clip::new(
        clip.name(),
        clip.joint_count(),
        tracks.cloned().collect(),
        clip.events().to_vec(),
    )
    .unwrap_or_else(|_| clip.clone())
}

/// A node given as a `matrix` rewritten as translation, rotation and scale (glTF animates only
/// those), the same transform.
fn matrix_to_trs(document: &mut Document, node: usize) {
    let n = &mut document.json["nodes"][node];
    let Some(m) = n["matrix"].as_array() else {
        return;
    };
    let cols: Vec<f32> = m
        .iter()
        .filter_map(|v| v.as_f64().map(|f| f as f32))
        .collect();
    if cols.len() != 16 {
        return;
    }
    let (scale, rotation, translation) =
        glam::Mat4::from_cols_slice(&cols).to_scale_rotation_translation();
    if let Some(o) = n.as_object_mut() {
        o.remove("matrix");
        o.insert("translation".into(), json!(translation.to_array()));
        o.insert("rotation".into(), json!(rotation.normalize().to_array()));
        o.insert("scale".into(), json!(scale.to_array()));
    }
}

/// Appends `clip` to `document` as a glTF animation: a sampler per track (its times, with the
/// minimum and maximum glTF asks of an input, and its values), a channel to the joint's node
/// (`node_of_joint`). Returns the animation's index.
pub fn push_animation(document: &mut Document, clip: &Clip, node_of_joint: &[usize]) -> usize {
    let (mut samplers, mut channels) = (Vec::new(), Vec::new());
    for track in clip.tracks() {
        let Some(&node) = node_of_joint.get(track.joint) else {
            continue;
        };
        let (path, values, type_, interpolation): (&str, Vec<f32>, &str, Interpolation) =
            match &track.channel {
                Channel::Translation(t) => (
                    "translation",
                    t.values().iter().flat_map(|v| v.to_array()).collect(),
                    "VEC3",
                    t.interpolation(),
                ),
                Channel::Scale(t) => (
                    "scale",
                    t.values().iter().flat_map(|v| v.to_array()).collect(),
                    "VEC3",
                    t.interpolation(),
                ),
                Channel::Rotation(t) => (
                    "rotation",
                    t.values().iter().flat_map(|q| q.to_array()).collect(),
                    "VEC4",
                    t.interpolation(),
                ),
            };
        let times = track.channel.times();
        let input = document.push_floats(times, "SCALAR", false);
        let (lo, hi) = (
            times.first().copied().unwrap_or(0.0),
            times.last().copied().unwrap_or(0.0),
        );
        document.json["accessors"][input]["min"] = json!([lo]);
        document.json["accessors"][input]["max"] = json!([hi]);
        let output = document.push_floats(&values, type_, false);
        let interpolation = match interpolation {
            Interpolation::Step => "STEP",
            Interpolation::CubicSpline => "CUBICSPLINE",
            Interpolation::Linear => "LINEAR",
        };
        channels.push(json!({"sampler": samplers.len(), "target": {"node": node, "path": path}}));
        samplers.push(json!({"input": input, "output": output, "interpolation": interpolation}));
    }
    let animation = json!({"name": clip.name(), "samplers": samplers, "channels": channels});
    match document.json["animations"].as_array_mut() {
        Some(list) => {
            list.push(animation);
            list.len() - 1
        }
        None => {
            document.json["animations"] = Value::Array(vec![animation]);
            0
        }
    }
}

/// Where a character with added clips is saved by default: beside it, `-retargeted` added.
pub fn retargeted_path(source: &Path) -> Option<PathBuf> {
    crate::glb::beside(source, "retargeted")
}
