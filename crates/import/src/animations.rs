//! Animations: each glTF animation becomes a clip whose tracks target skeleton joints (joints and
//! rigid nodes alike), plus morph-weight tracks kept for later.

use glam::{Quat, Vec3};
use gltf::accessor::{DataType, Dimensions};
use gltf::json::validation::Checked;

use super::accessor::{Buffers, expect_format, read_f32, read_normalized_f32};
use super::hierarchy::Hierarchy;
use super::problem::Problems;
use crate::anim::{
    Channel, Clip, ClipError, ClipEvent, Interpolation, JointTrack, Track, TrackError,
};
use crate::character::Problem;
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

/// The channels whose target path this viewer does not animate (`pointer`, from
/// KHR_animation_pointer, say): each is warned about and made parseable (a placeholder node), and
/// its JSON pointer returned, so that validation and `build` skip it. A file whose channels all
/// animate something keeps its JSON as it is.
pub(crate) fn set_aside_unsupported_channels(
    json: &mut serde_json::Value,
    problems: &mut Problems,
) -> Vec<String> {
    let mut skipped = Vec::new();
    let Some(animations) = json
        .get_mut("animations")
        .and_then(serde_json::Value::as_array_mut)
    else {
        return skipped;
    };
    for (a, animation) in animations.iter_mut().enumerate() {
        let Some(channels) = animation
            .get_mut("channels")
            .and_then(serde_json::Value::as_array_mut)
        else {
            continue;
        };
        for (c, channel) in channels.iter_mut().enumerate() {
            let Some(target) = channel
                .get_mut("target")
                .and_then(serde_json::Value::as_object_mut)
            else {
                continue;
            };
            let Some(path) = target.get("path").and_then(serde_json::Value::as_str) else {
                continue;
            };
            if matches!(path, "translation" | "rotation" | "scale" | "weights") {
                continue;
            }
            let at = format!("/animations/{a}/channels/{c}");
            problems.warn(
                format!("{at}/target/path"),
                format!(
                    "animates {path:?}, which this viewer does not animate: the channel is skipped"
                ),
            );
            target.entry("node").or_insert(serde_json::json!(0));
            skipped.push(at);
        }
    }
    skipped
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
    let errors_before = problems.errors.len();
    let mut tracks = Vec::new();
    let mut track_channel = Vec::new();
    let mut morph_tracks = Vec::new();
    let mut channels = Vec::new();
    for (c, channel) in json.channels.iter().enumerate() {
        let Some(source) =
            channel_source(document, hierarchy, &samplers, &at, c, channel, problems)
        else {
            continue;
        };
        let Some(times) = read_times(source.sampler, &source.s_at, buffers, problems) else {
            continue;
        };
        let keys = times.len();
        let read = match source.path {
            Property::Translation | Property::Scale | Property::Rotation => {
                read_joint_channel(&source, times, buffers, problems).map(Read::Joint)
            }
            Property::MorphTargetWeights => {
                read_weights(document, &source, times, buffers, problems).map(Read::Weights)
            }
        };
        let read = match read {
            Ok(read) => read,
            Err(p) => {
                problems.push_error(p);
                continue;
            }
        };
        channels.push(ChannelInfo {
            node: source.node,
            path: path_name(source.path),
            interpolation: source.interp,
            keys,
        });
        match read {
            Read::Joint(channel) => {
                let joint = hierarchy.joint_of_node[source.node];
                tracks.push(JointTrack { joint, channel });
                track_channel.push(c);
            }
            Read::Weights(track) => morph_tracks.push(track),
        }
    }
    if problems.errors.len() > errors_before {
        return None;
    }
    let clip = make_clip(animation, hierarchy, tracks, &track_channel, &at, problems)?;
    // Morph-only clips last as long as their weights do.
    let data = ClipData {
        index: animation.index(),
        clip,
        morph_tracks,
        channels,
        compressed: None,
    };
    let secs = data.duration_secs();
    if secs > 0.0 && secs < crate::anim::MIN_CLIP_SECS {
        problems.warn(
            at,
            format!("lasts {secs} s, under the 1 ms a clip must last to play: left out"),
        );
        return None;
    }
    Some(data)
}

use gltf::animation::Property;

/// What one channel reads into.
enum Read {
    Joint(Channel),
    Weights(MorphTrack),
}

/// One channel's target and sampler, checked, with the JSON pointers its problems name.
struct ChannelSource<'s, 'a> {
    node: usize,
    path: Property,
    sampler: &'s gltf::animation::Sampler<'a>,
    interp: Interpolation,
    /// `/animations/A/channels/C`, `/animations/A/samplers/S` and its `/output`.
    c_at: String,
    s_at: String,
    out_at: String,
}

fn path_name(path: Property) -> &'static str {
    match path {
        Property::Translation => "translation",
        Property::Rotation => "rotation",
        Property::Scale => "scale",
        Property::MorphTargetWeights => "weights",
    }
}

/// Checks a channel's target node, path and sampler, and warns about what glTF forbids but a
/// viewer can read anyway.
fn channel_source<'s, 'a>(
    document: &gltf::Document,
    hierarchy: &Hierarchy,
    samplers: &'s [gltf::animation::Sampler<'a>],
    at: &str,
    c: usize,
    channel: &gltf::json::animation::Channel,
    problems: &mut Problems,
) -> Option<ChannelSource<'s, 'a>> {
    let c_at = format!("{at}/channels/{c}");
    let Checked::Valid(path) = channel.target.path else {
        // An unknown path was warned about and set aside before parsing.
        return None;
    };
    let node = channel.target.node.value();
    let node_count = hierarchy.joint_of_node.len();
    if node >= node_count {
        problems.error(
            format!("{c_at}/target/node"),
            format!("node {node} does not exist (the file has {node_count})"),
        );
        return None;
    }
    let Some(sampler) = samplers.get(channel.sampler.value()) else {
        problems.error(
            format!("{c_at}/sampler"),
            "refers to a sampler that does not exist",
        );
        return None;
    };
    let s_at = format!("{at}/samplers/{}", sampler.index());
    let node_json = &document.as_json().nodes[node];
    let transform = path != Property::MorphTargetWeights;
    if transform && node_json.skin.is_some() && node_json.mesh.is_some() {
        problems.warn_coded(
            "ANIMATION_CHANNEL_TARGET_NODE_SKIN",
            format!("{c_at}/target/path"),
            format!("animates the transform of node {node}, a skinned mesh node: glTF ignores it for skinning"),
        );
    }
    if transform && node_json.matrix.is_some() {
        problems.warn(
            format!("{c_at}/target"),
            format!("animates node {node}, which has a matrix (glTF forbids this); the matrix is decomposed and the channel overrides its part"),
        );
    }
    let out_at = format!("{s_at}/output");
    if sampler.output().view().and_then(|v| v.stride()).is_some() {
        problems.warn(&out_at, "its buffer view has a byteStride, which glTF forbids for animation data; read with the stride");
    }
    Some(ChannelSource {
        node,
        path,
        sampler,
        interp: interpolation(sampler.interpolation()),
        c_at,
        s_at,
        out_at,
    })
}

/// A translation, rotation or scale track. Rotations may be normalised integers (glTF's
/// animation rules); translations and scales are floats.
fn read_joint_channel(
    source: &ChannelSource<'_, '_>,
    mut times: Vec<f32>,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Result<Channel, Problem> {
    use DataType::{F32, I8, I16, U8, U16};
    let output = source.sampler.output();
    let (interp, s_at) = (source.interp, &source.s_at);
    let (dimensions, components, types): (_, usize, &[DataType]) = match source.path {
        Property::Rotation => (Dimensions::Vec4, 4, &[F32, I8, U8, I16, U16]),
        _ => (Dimensions::Vec3, 3, &[F32]),
    };
    expect_format(
        &output,
        &format!("{}/sampler", source.c_at),
        path_name(source.path),
        &[dimensions],
        types,
    )?;
    let mut v = read_normalized_f32(&output, buffers)?;
    let floats_per_key = components * interp.values_per_key();
    drop_repeated_times(&mut times, &mut v, floats_per_key, s_at, problems);
    let vec3s = || v.chunks_exact(3).map(Vec3::from_slice).collect();
    let problem = |e| track_problem(e, s_at);
    Ok(match source.path {
        Property::Rotation => {
            let mut values: Vec<Quat> = v.chunks_exact(4).map(Quat::from_slice).collect();
            normalise_key_rotations(&mut values, interp, &source.out_at, problems);
            Channel::Rotation(Track::new(times, values, interp).map_err(problem)?)
        }
        Property::Translation => {
            Channel::Translation(Track::new(times, vec3s(), interp).map_err(problem)?)
        }
        _ => Channel::Scale(Track::new(times, vec3s(), interp).map_err(problem)?),
    })
}

/// A morph-weight track: `targets` weights per key (three times that for cubic splines).
fn read_weights(
    document: &gltf::Document,
    source: &ChannelSource<'_, '_>,
    mut times: Vec<f32>,
    buffers: &Buffers,
    problems: &mut Problems,
) -> Result<MorphTrack, Problem> {
    let (node, interp, out_at) = (source.node, source.interp, &source.out_at);
    let targets = document
        .nodes()
        .nth(node)
        .and_then(|n| n.mesh())
        .and_then(|m| m.primitives().next())
        .map_or(0, |p| p.morph_targets().len());
    let output = source.sampler.output();
    let types = [
        DataType::F32,
        DataType::I8,
        DataType::U8,
        DataType::I16,
        DataType::U16,
    ];
    let sampler_at = format!("{}/sampler", source.c_at);
    expect_format(
        &output,
        &sampler_at,
        "weights",
        &[Dimensions::Scalar],
        &types,
    )?;
    let mut values = read_normalized_f32(&output, buffers)?;
    if targets == 0 {
        return Err(Problem::new(
            format!("{}/target", source.c_at),
            format!("animates the morph weights of node {node}, whose mesh has no morph targets"),
        ));
    }
    let per_key = targets * interp.values_per_key();
    drop_repeated_times(&mut times, &mut values, per_key, &source.s_at, problems);
    let keys = times.len();
    let expected = keys * per_key;
    if values.len() != expected {
        return Err(Problem::new(
            out_at,
            format!(
                "{} weights for {keys} keys of {targets} morph targets ({interp:?}): expected {expected}",
                values.len()
            ),
        ));
    }
    if values.iter().any(|v| !v.is_finite()) {
        return Err(Problem::new(out_at, "has non-finite weights"));
    }
    Ok(MorphTrack {
        node,
        targets,
        times,
        values,
        interpolation: interp,
    })
}

/// The clip from its tracks and events; a refusal names the channel or event.
fn make_clip(
    animation: &gltf::Animation<'_>,
    hierarchy: &Hierarchy,
    tracks: Vec<JointTrack>,
    track_channel: &[usize],
    at: &str,
    problems: &mut Problems,
) -> Option<Clip> {
    let name = animation
        .name()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("animation {}", animation.index()));
    let events = read_events(animation, at, problems);
    match Clip::new(name, hierarchy.skeleton.joint_count(), tracks, events) {
        Ok(clip) => Some(clip),
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
            None
        }
    }
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
