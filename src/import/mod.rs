//! glTF import: a `.gltf` (external or data-URI buffers) or `.glb` file to a `Character`.
//!
//! Every problem is collected with its JSON pointer. Errors refuse the whole file (never a
//! half-loaded character); problems the viewer can work around load, and are reported as warnings.

mod accessor;
mod animations;
pub mod bvh;
mod clips_from;
mod container;
mod draco;
mod extensions;
mod hierarchy;
mod influences;
mod materials;
mod meshes;
mod problem;
mod skeleton_only;
mod skins;
mod uri;

use std::path::Path;

pub use clips_from::{ClipsFromError, NoMatch, clips_from, joint_match, read_map, retarget_onto};
use problem::Problems;
pub use problem::{ImportError, json_pointer};
pub use uri::Reach;
use uri::UriBase;

use crate::character::{CameraData, Character, Problem, Projection};

/// What to load of a file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// The scene to display (`/scenes/N`); `None` is the file's default scene.
    pub scene: Option<usize>,
    /// The folder tree the file's buffer and image URIs may name (default: its own folder).
    pub reach: Reach,
}

/// Loads a `.gltf` or `.glb` file (its default scene), or a `.bvh` as a skeleton without a mesh.
pub fn load(path: &Path) -> Result<Character, ImportError> {
    load_with(path, LoadOptions::default())
}

/// Loads a `.gltf` or `.glb` file, as `options` say.
pub fn load_with(path: &Path, options: LoadOptions) -> Result<Character, ImportError> {
    let refuse = |message: String| ImportError {
        file: path.to_path_buf(),
        errors: vec![Problem::new("", message)],
        warnings: Vec::new(),
    };
    if path.is_dir() {
        return Err(refuse("is a directory, not a glTF file".into()));
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("bvh"))
    {
        // A motion-capture take on its own: its skeleton, no mesh.
        return skeleton_only::bvh_character(path);
    }
    // A regular file of at most MAX_MODEL_BYTES, checked by its size before it is read.
    let bytes = crate::files::read_capped(path, crate::files::MAX_MODEL_BYTES)
        .map_err(|e| refuse(e.to_string()))?;
    load_bytes_with(&bytes, path, options)
}

/// Loads glTF from bytes; `path` names the file in messages and locates external buffers and
/// images (relative to its folder).
pub fn load_bytes(bytes: &[u8], path: &Path) -> Result<Character, ImportError> {
    load_bytes_with(bytes, path, LoadOptions::default())
}

/// `load_bytes` as `options` say.
pub fn load_bytes_with(
    bytes: &[u8],
    path: &Path,
    options: LoadOptions,
) -> Result<Character, ImportError> {
    let mut problems = Problems::default();
    // A panic here is a bug in the importer or a library under it; the file is refused, and
    // whatever the caller had loaded stays.
    let character = crate::contain::quietly(|| import(bytes, path, options, &mut problems))
        .unwrap_or_else(|what| {
            problems.error(
                "",
                format!("internal error while importing (a bug, please report it): {what}"),
            );
            None
        });
    match character {
        Some(mut c) if problems.errors.is_empty() => {
            c.warnings = problems.warnings;
            c.notes = problems.notes;
            Ok(c)
        }
        _ => {
            if problems.errors.is_empty() {
                problems.error("", "the file could not be loaded");
            }
            Err(ImportError {
                file: path.to_path_buf(),
                errors: problems.errors,
                warnings: problems.warnings,
            })
        }
    }
}

fn import(
    bytes: &[u8],
    path: &Path,
    options: LoadOptions,
    problems: &mut Problems,
) -> Option<Character> {
    let glb_name = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    let split = container::split(bytes, glb_name, problems)?;
    let mut json: serde_json::Value = match serde_json::from_slice(split.json) {
        Ok(v) => v,
        Err(e) => {
            problems.error("", format!("not valid glTF JSON: {e}"));
            return None;
        }
    };
    let skipped_channels = animations::set_aside_unsupported_channels(&mut json, problems);
    let meshopt = extensions::prepare(&mut json, problems);
    let draco = draco::prepare(&mut json, problems);
    if !problems.errors.is_empty() {
        return None;
    }
    let root: gltf::json::Root = match serde_json::from_value(json) {
        Ok(root) => root,
        Err(e) => {
            problems.error("", format!("not valid glTF JSON: {e}"));
            return None;
        }
    };
    let gltf = gltf::Gltf {
        document: gltf::Document::from_json_without_validation(root),
        blob: split.bin.map(<[u8]>::to_vec),
    };
    if !validate(&gltf.document, &skipped_channels, problems) {
        return None;
    }
    let document = &gltf.document;
    let base = UriBase::of_model(path, options.reach.clone());
    let mut buffers = load_buffers(document, &base, gltf.blob.clone(), &meshopt, problems);
    extensions::decode(&meshopt, &mut buffers, problems);
    draco.decode(&mut buffers, problems);
    let decoders_failed = !problems.errors.is_empty();
    for p in accessor::check_all(document, &buffers) {
        // What a failed decoder left empty is its error, said once at the decoder's pointer;
        // not again at every view that reads it.
        if !(decoders_failed && p.message.contains(UNDECODED)) {
            problems.push_error(p);
        }
    }
    if !problems.errors.is_empty() {
        return None;
    }
    let hierarchy = hierarchy::build(document, options.scene, problems)?;
    let cameras = cameras(document, &hierarchy, problems);
    let skins = skins::build(document, &buffers, &hierarchy, problems);
    let (meshes, instances) =
        meshes::build(document, &buffers, &base, &hierarchy, &skins, problems);
    let clips = animations::build(document, &buffers, &hierarchy, problems);
    if !problems.errors.is_empty() {
        return None;
    }
    let driver_extras = document
        .nodes()
        .filter_map(|n| {
            let extras: serde_json::Value =
                serde_json::from_str(n.extras().as_ref()?.get()).ok()?;
            let drivers = extras.get("skinscope_drivers")?;
            let joint = *hierarchy.joint_of_node.get(n.index())?;
            Some((n.index(), joint, drivers.to_string()))
        })
        .collect();
    Some(Character {
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        skeleton: hierarchy.skeleton,
        node_of_skeleton_joint: hierarchy.node_of_joint,
        skeleton_joint_of_node: hierarchy.joint_of_node,
        skins,
        meshes,
        instances,
        clips,
        warnings: Vec::new(),
        notes: Vec::new(),
        scenes: document
            .scenes()
            .map(|s| {
                s.name()
                    .map_or_else(|| format!("scene {}", s.index()), str::to_owned)
            })
            .collect(),
        scene: hierarchy.scene,
        cameras,
        driver_extras,
    })
}

/// The gltf crate's own checks (index ranges, enums, required fields), which its accessors
/// assume, with glTF's leniencies: channels set aside, accessors without a buffer view and
/// POSITION without bounds are not errors. Returns whether the document passed.
fn validate(
    document: &gltf::Document,
    skipped_channels: &[String],
    problems: &mut Problems,
) -> bool {
    // The gltf crate's validation indexes POSITION accessors without checking them first (a panic
    // on a bad index): check those here.
    let accessor_count = document.as_json().accessors.len();
    let mut bad_position = false;
    for (m, mesh) in document.as_json().meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let position = gltf::json::validation::Checked::Valid(gltf::Semantic::Positions);
            if let Some(index) = primitive.attributes.get(&position)
                && index.value() >= accessor_count
            {
                problems.error(
                    format!("/meshes/{m}/primitives/{p}/attributes/POSITION"),
                    describe_validation_error(gltf::json::validation::Error::IndexOutOfBounds),
                );
                bad_position = true;
            }
        }
    }
    if bad_position {
        return false;
    }
    // The gltf crate's own checks (index ranges, enums, required fields) come first: its
    // accessors assume them.
    if let Err(gltf::Error::Validation(errors)) =
        gltf::Document::from_json(document.as_json().clone())
    {
        for (path, error) in errors {
            let pointer = json_pointer(path.as_str());
            // Channels this viewer does not animate were set aside with a warning.
            if skipped_channels
                .iter()
                .any(|c| pointer.starts_with(&format!("{c}/")))
            {
                continue;
            }
            // glTF allows an accessor without a buffer view (all zeros, maybe sparse); the gltf
            // crate does not. The accessor reader handles it.
            let zero_filled = error == gltf::json::validation::Error::Missing
                && pointer.starts_with("/accessors/")
                && pointer.ends_with("/bufferView");
            // POSITION bounds are required by glTF but only used for culling; three.js loads
            // files without them. Bounds are computed from the data when needed.
            let position_bounds = matches!(
                error,
                gltf::json::validation::Error::Missing | gltf::json::validation::Error::Invalid
            ) && (pointer.ends_with("/POSITION/min")
                || pointer.ends_with("/POSITION/max"));
            if position_bounds {
                problems.warn(
                    pointer,
                    "POSITION accessor has no usable min/max (glTF requires them); computed from the data",
                );
            } else if !zero_filled {
                problems.error(pointer, describe_validation_error(error));
            }
        }
        if !problems.errors.is_empty() {
            return false;
        }
    }
    true
}

/// The displayed scene's camera nodes, by camera index (then in scene order).
fn cameras(
    document: &gltf::Document,
    hierarchy: &hierarchy::Hierarchy,
    problems: &mut Problems,
) -> Vec<CameraData> {
    let nodes: Vec<gltf::Node<'_>> = document.nodes().collect();
    let mut cameras: Vec<CameraData> = hierarchy
        .scene_nodes
        .iter()
        .filter_map(|&n| {
            let camera = nodes[n].camera()?;
            let projection = match camera.projection() {
                gltf::camera::Projection::Perspective(p) => Projection::Perspective {
                    yfov_radians: p.yfov(),
                    znear: p.znear(),
                    zfar: p.zfar(),
                },
                gltf::camera::Projection::Orthographic(o) => Projection::Orthographic {
                    ymag: o.ymag(),
                    znear: o.znear(),
                    zfar: o.zfar(),
                },
            };
            let usable = match projection {
                Projection::Perspective {
                    yfov_radians,
                    znear,
                    zfar,
                } => {
                    yfov_radians > 0.0
                        && yfov_radians < std::f32::consts::PI
                        && znear > 0.0
                        && zfar.is_none_or(|f| f > znear)
                }
                Projection::Orthographic { ymag, znear, zfar } => {
                    ymag.is_normal() && znear >= 0.0 && zfar > znear
                }
            };
            if !usable {
                problems.warn(
                    format!("/cameras/{}", camera.index()),
                    format!("{projection:?} cannot project (glTF needs a field of view in (0, 180) degrees and 0 < znear < zfar): the camera is not offered"),
                );
                return None;
            }
            let name = camera
                .name()
                .or_else(|| nodes[n].name())
                .map_or_else(|| format!("camera {}", camera.index()), str::to_owned);
            Some(CameraData {
                name,
                index: camera.index(),
                node: n,
                skeleton_joint: hierarchy.joint_of_node[n],
                projection,
            })
        })
        .collect();
    cameras.sort_by_key(|c| c.index);
    cameras
}

fn describe_validation_error(e: gltf::json::validation::Error) -> String {
    use gltf::json::validation::Error as E;
    match e {
        E::IndexOutOfBounds => "refers to an object that does not exist".into(),
        E::Invalid => "has an invalid value".into(),
        E::Missing => "a required property is missing".into(),
        E::Oversize => "a size or offset is too large".into(),
        E::Unsupported => "requires an extension this viewer does not support".into(),
    }
}

/// Why a buffer that decoded data fills has no bytes: its decoder did not fill it (it failed,
/// and said why at its own JSON pointer).
const UNDECODED: &str = "filled only by decoding compressed data, which did not fill it";

/// Reads every buffer: the GLB's BIN chunk, an external file, or a data URI. Each must hold at
/// least its declared byteLength. A buffer with no source is kept as `Err` and is an error only
/// where something reads it.
fn load_buffers(
    document: &gltf::Document,
    base: &UriBase,
    mut blob: Option<Vec<u8>>,
    meshopt: &extensions::Meshopt,
    problems: &mut Problems,
) -> Vec<Result<Vec<u8>, String>> {
    let mut buffers = Vec::new();
    for buffer in document.buffers() {
        let at = format!("/buffers/{}", buffer.index());
        if !meshopt.loads(buffer.index()) {
            // A meshopt fallback (its views are decoded from compressed data) or a buffer the
            // decoded bytes fill (meshopt's or Draco's).
            buffers.push(Err(UNDECODED.into()));
            continue;
        }
        let data = match buffer.source() {
            gltf::buffer::Source::Bin => match blob.take() {
                Some(b) => Ok(b),
                None => {
                    buffers.push(Err(
                        "it has no uri and the file has no GLB BIN chunk".to_string()
                    ));
                    continue;
                }
            },
            gltf::buffer::Source::Uri(uri) => {
                // At most the declared byteLength, from a data: URI or a regular file.
                base.read(uri, buffer.length() as u64)
            }
        };
        match data {
            Ok(data) if data.len() < buffer.length() => {
                problems.error(
                    format!("{at}/byteLength"),
                    format!(
                        "byteLength is {} but the data has only {} bytes (truncated buffer)",
                        buffer.length(),
                        data.len()
                    ),
                );
                buffers.push(Err("truncated".into()));
            }
            Ok(data) => buffers.push(Ok(data)),
            Err(message) => {
                problems.error(format!("{at}/uri"), message.clone());
                buffers.push(Err(message));
            }
        }
    }
    buffers
}
