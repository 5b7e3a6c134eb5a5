//! Animations: each glTF animation becomes a clip whose tracks target skeleton joints (joints and
//! rigid nodes alike), plus morph-weight tracks kept for later.

use glam::{Quat, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::json::validation::Checked;

use super::accessor::{Buffers, expect_format, read_f32, read_normalized_f32};
use super::hierarchy::Hierarchy;
use super::problem::{Problem, Problems};
use crate::anim::{
    Channel, Clip, ClipError, ClipEvent, Interpolation, JointTrack, Track, TrackError,
};
use crate::character::{ChannelInfo, ClipData, MorphTrack};

pub(crate) fn build(
    document: &gltf::Document,
    buffers: &Buffers,
    hierarchy: &Hierarchy,
    problems: &mut Problems,
) -> Vec<ClipData> {
    document
        .animations()
        .filter_map(|a| build_one(document, &a, buffers, hierarchy, problems))
        .collect()
}

fn interpolation(i: gltf::animation::Interpolation) -> Interpolation {
    match i {
        gltf::animation::Interpolation::Step => Interpolation::Step,
        gltf::animation::Interpolation::Linear => Interpolation::Linear,
        gltf::animation::Interpolation::CubicSpline => Interpolation::CubicSpline,
    }
}

/// A track error at the sampler's input or output accessor.
fn track_problem(e: TrackError, sampler_at: &str) -> Problem {
    let field = match e {
        TrackError::NoKeys
        | TrackError::BadKeyTime { .. }
        | TrackError::NonIncreasingKeyTimes { .. } => "input",
        TrackError::ValueCountMismatch { .. }
        | TrackError::NonFiniteValue { .. }
        | TrackError::ZeroQuaternion { .. } => "output",
    };
    Problem::new(format!("{sampler_at}/{field}"), e.to_string())
}

fn build_one(
    document: &gltf::Document,
    animation: &gltf::Animation<'_>,
    buffers: &Buffers,
    hierarchy: &Hierarchy,
    problems: &mut Problems,
) -> Option<ClipData> {
    let at = format!("/animations/{}", animation.index());
    let json = &document.as_json().animations[animation.index()];
    let samplers: Vec<gltf::animation::Sampler<'_>> = animation.samplers().collect();
    let node_count = hierarchy.joint_of_node.len();
    let errors_before = problems.errors.len();
    let mut tracks = Vec::new();
    let mut track_channel = Vec::new();
    let mut morph_tracks = Vec::new();
    let mut channels = Vec::new();
    for (c, channel) in json.channels.iter().enumerate() {
        let c_at = format!("{at}/channels/{c}");
        let node = channel.target.node.value();
        if node >= node_count {
            problems.error(
                format!("{c_at}/target/node"),
                format!("node {node} does not exist (the file has {node_count})"),
            );
            continue;
        }
        let Checked::Valid(path) = channel.target.path else {
            problems.error(
                format!("{c_at}/target/path"),
                "is not translation, rotation, scale or weights",
            );
            continue;
        };
        let Some(sampler) = samplers.get(channel.sampler.value()) else {
            problems.error(
                format!("{c_at}/sampler"),
                "refers to a sampler that does not exist",
            );
            continue;
        };
        let s_at = format!("{at}/samplers/{}", sampler.index());
        let interp = interpolation(sampler.interpolation());
        let node_json = &document.as_json().nodes[node];
        if node_json.skin.is_some()
            && node_json.mesh.is_some()
            && path != gltf::animation::Property::MorphTargetWeights
        {
            problems.warn(
                format!("{c_at}/target/path"),
                format!("animates the transform of node {node}, a skinned mesh node: glTF ignores it for skinning"),
            );
        }
        let Some(mut times) = read_times(sampler, &s_at, buffers, problems) else {
            continue;
        };
        if document.as_json().nodes[node].matrix.is_some()
            && path != gltf::animation::Property::MorphTargetWeights
        {
            problems.warn(
                format!("{c_at}/target"),
                format!("animates node {node}, which has a matrix (glTF forbids this); the matrix is decomposed and the channel overrides its part"),
            );
        }
        let output = sampler.output();
        let out_at = format!("{s_at}/output");
        if output.view().and_then(|v| v.stride()).is_some() {
            problems.warn(&out_at, "its buffer view has a byteStride, which glTF forbids for animation data; read with the stride");
        }
        let keys = times.len();
        let joint = hierarchy.joint_of_node[node];
        let path_name;
        let made: Result<Channel, Problem> = match path {
            gltf::animation::Property::Translation | gltf::animation::Property::Scale => {
                path_name = if path == gltf::animation::Property::Translation {
                    "translation"
                } else {
                    "scale"
                };
                expect_format(
                    &output,
                    &format!("{c_at}/sampler"),
                    path_name,
                    &[Dimensions::Vec3],
                    &[DataType::F32],
                )
                .and_then(|_| read_f32(&output, buffers))
                .and_then(|mut v| {
                    drop_repeated_times(
                        &mut times,
                        &mut v,
                        3 * interp.values_per_key(),
                        &s_at,
                        problems,
                    );
                    let values = v.chunks_exact(3).map(Vec3::from_slice).collect();
                    Track::new(times, values, interp).map_err(|e| track_problem(e, &s_at))
                })
                .map(|t| {
                    if path == gltf::animation::Property::Translation {
                        Channel::Translation(t)
                    } else {
                        Channel::Scale(t)
                    }
                })
            }
            gltf::animation::Property::Rotation => {
                path_name = "rotation";
                expect_format(
                    &output,
                    &format!("{c_at}/sampler"),
                    "rotation",
                    &[Dimensions::Vec4],
                    &[
                        DataType::F32,
                        DataType::I8,
                        DataType::U8,
                        DataType::I16,
                        DataType::U16,
                    ],
                )
                .and_then(|_| read_normalized_f32(&output, buffers))
                .and_then(|mut v| {
                    drop_repeated_times(
                        &mut times,
                        &mut v,
                        4 * interp.values_per_key(),
                        &s_at,
                        problems,
                    );
                    let mut values: Vec<Quat> = v.chunks_exact(4).map(Quat::from_slice).collect();
                    normalise_key_rotations(&mut values, interp, &out_at, problems);
                    Track::new(times, values, interp).map_err(|e| track_problem(e, &s_at))
                })
                .map(Channel::Rotation)
            }
            gltf::animation::Property::MorphTargetWeights => {
                path_name = "weights";
                let targets = document
                    .nodes()
                    .nth(node)
                    .and_then(|n| n.mesh())
                    .and_then(|m| m.primitives().next())
                    .map_or(0, |p| p.morph_targets().len());
                let result = expect_format(
                    &output,
                    &format!("{c_at}/sampler"),
                    "weights",
                    &[Dimensions::Scalar],
                    &[DataType::F32, DataType::I8, DataType::U8, DataType::I16, DataType::U16],
                )
                .and_then(|_| read_normalized_f32(&output, buffers))
                .and_then(|mut values| {
                    let per_key = targets * interp.values_per_key();
                    if targets > 0 {
                        drop_repeated_times(&mut times, &mut values, per_key, &s_at, problems);
                    }
                    let keys = times.len();
                    let expected = keys * per_key;
                    if targets == 0 {
                        Err(Problem::new(format!("{c_at}/target"), format!("animates the morph weights of node {node}, whose mesh has no morph targets")))
                    } else if values.len() != expected {
                        Err(Problem::new(&out_at, format!("{} weights for {keys} keys of {targets} morph targets ({interp:?}): expected {expected}", values.len())))
                    } else if values.iter().any(|v| !v.is_finite()) {
                        Err(Problem::new(&out_at, "has non-finite weights"))
                    } else {
                        Ok(values)
                    }
                });
                match result {
                    Ok(values) => {
                        channels.push(ChannelInfo {
                            node,
                            path: path_name,
                            interpolation: interp,
                            keys,
                        });
                        morph_tracks.push(MorphTrack {
                            node,
                            targets,
                            times,
                            values,
                            interpolation: interp,
                        });
                    }
                    Err(p) => problems.push_error(p),
                }
                continue;
            }
        };
        match made {
            Ok(channel) => {
                channels.push(ChannelInfo {
                    node,
                    path: path_name,
                    interpolation: interp,
                    keys,
                });
                tracks.push(JointTrack { joint, channel });
                track_channel.push(c);
            }
            Err(p) => problems.push_error(p),
        }
    }
    if problems.errors.len() > errors_before {
        return None;
    }
    let name = animation
        .name()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("animation {}", animation.index()));
    let events = read_events(animation, &at, problems);
    let clip = match Clip::new(name, hierarchy.skeleton.joint_count(), tracks, events) {
        Ok(clip) => clip,
        Err(e) => {
            let pointer = match &e {
                ClipError::DuplicateTarget { track, .. }
                | ClipError::JointOutOfRange { track, .. } => {
                    format!("{at}/channels/{}", track_channel[*track])
                }
                ClipError::EventOutOfRange { event, .. } => {
                    format!("{at}/extras/skinscope_events/{event}")
                }
            };
            problems.error(pointer, e.to_string());
            return None;
        }
    };
    // Morph-only clips last as long as their weights do.
    Some(ClipData {
        index: animation.index(),
        clip,
        morph_tracks,
        channels,
    })
}

/// Key times: a float scalar accessor. Missing min/max bounds are computed here, not required.
fn read_times(
    sampler: &gltf::animation::Sampler<'_>,
    s_at: &str,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Option<Vec<f32>> {
    let input = sampler.input();
    let in_at = format!("{s_at}/input");
    problems.take(expect_format(
        &input,
        &in_at,
        "key time",
        &[Dimensions::Scalar],
        &[DataType::F32],
    ))?;
    if input.min().is_none() || input.max().is_none() {
        problems.warn(
            &in_at,
            "the key time accessor has no min/max (glTF requires them); computed from the data",
        );
    }
    if input.view().and_then(|v| v.stride()).is_some() {
        problems.warn(&in_at, "its buffer view has a byteStride, which glTF forbids for animation data; read with the stride");
    }
    problems.take(read_f32(&input, buffers))
}

/// Key rotations must be unit quaternions; non-unit ones (not zero) are normalised with a warning.
fn normalise_key_rotations(
    values: &mut [Quat],
    interp: Interpolation,
    at: &str,
    problems: &mut Problems,
) {
    let per_key = interp.values_per_key();
    let offset = if per_key == 3 { 1 } else { 0 };
    let mut fixed = 0;
    for q in values.iter_mut().skip(offset).step_by(per_key) {
        let len = q.length();
        if len > f32::EPSILON && len.is_finite() && (len - 1.0).abs() > 1e-3 {
            *q /= len;
            fixed += 1;
        }
    }
    if fixed > 0 {
        problems.warn(
            at,
            format!("{fixed} key rotations are not unit quaternions: normalised"),
        );
    }
}

/// Exporters often write two keys at one time to make a jump. glTF requires strictly increasing
/// times, so the earlier key of such a pair moves to the float just below the shared time: the
/// curve still reaches the first value and jumps to the second, as the exporter meant (three.js
/// plays such files as they are). Where there is no room below (the previous key, or 0), the
/// earlier key is dropped. `values` holds `floats_per_key` floats per key; when its length does
/// not match, nothing changes (the count mismatch is reported later).
fn drop_repeated_times(
    times: &mut Vec<f32>,
    values: &mut Vec<f32>,
    floats_per_key: usize,
    sampler_at: &str,
    problems: &mut Problems,
) {
    if floats_per_key == 0 || values.len() != times.len() * floats_per_key {
        return;
    }
    let mut keep = vec![true; times.len()];
    let (mut moved, mut dropped) = (0, 0);
    let mut previous: Option<f32> = None;
    for i in 0..times.len() {
        if i + 1 < times.len() && times[i] == times[i + 1] {
            let below = times[i].next_down();
            if below >= 0.0 && previous.is_none_or(|p| below > p) {
                times[i] = below;
                moved += 1;
            } else {
                keep[i] = false;
                dropped += 1;
                continue;
            }
        }
        previous = Some(times[i]);
    }
    if moved + dropped == 0 {
        return;
    }
    let mut k = keep.iter();
    times.retain(|_| *k.next().unwrap_or(&true));
    let kept: Vec<f32> = values
        .chunks_exact(floats_per_key)
        .zip(&keep)
        .filter(|(_, keep)| **keep)
        .flat_map(|(v, _)| v.iter().copied())
        .collect();
    *values = kept;
    problems.warn(
        format!("{sampler_at}/input"),
        format!(
            "{} keys share their time with the next key (glTF requires increasing times): {moved} moved just before it to keep the jump, {dropped} dropped",
            moved + dropped
        ),
    );
}

/// Named events from the animation's `extras.skinscope_events` (`[{"name": "foot_left", "time":
/// 0.25}]`), as the built-in character stores them; malformed entries are skipped with a warning.
fn read_events(
    animation: &gltf::Animation<'_>,
    at: &str,
    problems: &mut Problems,
) -> Vec<ClipEvent> {
    let Some(raw) = animation.extras() else {
        return Vec::new();
    };
    let Ok(extras) = serde_json::from_str::<serde_json::Value>(raw.get()) else {
        return Vec::new();
    };
    let Some(list) = extras.get("skinscope_events").and_then(|e| e.as_array()) else {
        return Vec::new();
    };
    let mut events = Vec::new();
    for (i, e) in list.iter().enumerate() {
        let name = e.get("name").and_then(|n| n.as_str());
        let time = e.get("time").and_then(|t| t.as_f64()).map(|t| t as f32);
        match (name, time) {
            (Some(name), Some(time_secs)) if time_secs.is_finite() => events.push(ClipEvent {
                name: name.to_owned(),
                time_secs,
            }),
            _ => problems.warn(
                format!("{at}/extras/skinscope_events/{i}"),
                "an event needs a \"name\" string and a finite \"time\"; skipped",
            ),
        }
    }
    events
}
