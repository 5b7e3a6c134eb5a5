//! `skinscope inspect`: what a file holds, as text for people or JSON for tools.

use serde::Serialize;

use crate::anim::Interpolation;
use crate::character::Character;
use crate::character::Problem;
use crate::import::ImportError;

#[derive(Serialize)]
pub struct Report {
    pub file: String,
    pub loaded: bool,
    pub nodes: usize,
    pub skins: Vec<SkinReport>,
    pub clips: Vec<ClipReport>,
    pub meshes: Vec<MeshReport>,
    /// The displayed scene's cameras, by camera index (`/cameras/N`).
    pub cameras: Vec<CameraReport>,
    /// The file's scenes by name (`scene N` when unnamed), by index.
    pub scenes: Vec<String>,
    /// The displayed scene's index.
    pub scene: usize,
    pub influences: InfluenceReport,
    pub warnings: Vec<ProblemReport>,
    /// glTF rules the file relies on (not problems).
    pub notes: Vec<ProblemReport>,
    pub errors: Vec<ProblemReport>,
    /// `inspect --compression`: each clip compressed and measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression: Option<super::compression::CompressionSection>,
    /// `inspect --ddm`: direct delta mush's Ω, precomputed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ddm: Option<DdmSection>,
    /// `inspect --clips-from FILE`: which of the character's joints each file's clips drive.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub retarget: Vec<RetargetSection>,
}

/// `inspect --clips-from FILE`: the file's joints matched to the character's.
#[derive(Serialize)]
pub struct RetargetSection {
    pub file: String,
    /// (character joint, source joint).
    pub matched: Vec<(String, String)>,
    /// How each pair was found: exact name, convention table, fuzzy, by position in the
    /// hierarchy, by hand.
    pub how: Vec<&'static str>,
    /// The character's joints the file does not drive.
    pub unmatched: Vec<String>,
    /// The file's joints that drive nothing.
    pub unused: Vec<String>,
}

impl RetargetSection {
    pub fn of(file: &str, m: crate::anim::JointMatch) -> Self {
        Self {
            file: file.to_string(),
            matched: m.matched,
            how: m.how,
            unmatched: m.unmatched,
            unused: m.unused,
        }
    }

    fn to_text(&self) -> String {
        let m = crate::anim::JointMatch {
            matched: self.matched.clone(),
            how: self.how.clone(),
            unmatched: self.unmatched.clone(),
            unused: self.unused.clone(),
        };
        format!("\nclips from {}: {}", self.file, m.to_text())
    }
}

/// `inspect --ddm`: the parameters, Ω's size and the precomputation's time.
#[derive(Serialize)]
pub struct DdmSection {
    pub iterations: u32,
    pub lambda: f32,
    pub kappa: f32,
    pub alpha: f32,
    #[serde(flatten)]
    pub stats: crate::deform::DdmStats,
    pub seconds: f64,
}

impl DdmSection {
    pub fn of(data: &crate::deform::DdmData, seconds: f64) -> Self {
        let p = data.params;
        Self {
            iterations: p.iterations,
            lambda: p.lambda,
            kappa: p.kappa,
            alpha: p.alpha,
            stats: data.stats(),
            seconds,
        }
    }

    fn to_text(&self) -> String {
        let s = &self.stats;
        format!(
            "\ndirect delta mush (p {}, lambda {}, kappa {}, alpha {}): {} entries in Omega, at most {} of the cap {} a vertex ({} terms beyond it dropped); {} vertices welded to {}; {:.2} MB on the GPU; precomputed in {:.2} s\n",
            self.iterations,
            self.lambda,
            self.kappa,
            self.alpha,
            s.entries,
            s.most_per_vertex,
            s.cap,
            s.dropped,
            s.vertices,
            s.welded,
            s.bytes as f64 / 1e6,
            self.seconds
        )
    }
}

#[derive(Serialize)]
pub struct SkinReport {
    pub name: String,
    pub index: usize,
    pub joint_count: usize,
    pub root_joints: Vec<String>,
    /// Nodes above the root joints that are not joints (armatures), from the scene root down.
    pub non_joint_ancestors: Vec<String>,
    /// Nodes that draw a mesh with this skin.
    pub mesh_nodes: Vec<usize>,
    pub joints: Vec<JointReport>,
}

#[derive(Serialize)]
pub struct JointReport {
    pub palette_index: usize,
    /// Position in the file's `joints` list (what JOINTS_0 stores in the file).
    pub ordinal: usize,
    pub node: usize,
    pub name: String,
    /// Palette index of the parent joint in this skin; null for a root joint.
    pub parent: Option<usize>,
    pub parent_node: Option<usize>,
}

#[derive(Serialize)]
pub struct ClipReport {
    pub name: String,
    pub duration_secs: f32,
    pub channels: usize,
    pub interpolations: Vec<&'static str>,
    pub morph_channels: usize,
    /// Each morph-weight track: the node it animates, its targets, keys and interpolation.
    pub weight_tracks: Vec<WeightTrackReport>,
    /// Per mesh node whose weights the clip animates: the most targets non-zero at once.
    pub morph_peaks: Vec<crate::debug::morph_peak::MorphPeak>,
    pub events: Vec<EventReport>,
}

#[derive(Serialize)]
pub struct WeightTrackReport {
    pub node: usize,
    pub targets: usize,
    pub keys: usize,
    pub interpolation: &'static str,
}

#[derive(Serialize)]
pub struct TargetReport {
    pub name: String,
    /// The attributes the target displaces ("POSITION", "NORMAL", "TANGENT"), over all
    /// primitives.
    pub attributes: Vec<&'static str>,
    /// The mesh's default weight for it.
    pub default_weight: f32,
}

#[derive(Serialize)]
pub struct EventReport {
    pub name: String,
    pub time_secs: f32,
}

#[derive(Serialize)]
pub struct MeshReport {
    pub name: String,
    pub index: usize,
    pub vertices: usize,
    pub triangles: usize,
    pub primitives: usize,
    pub skinned: bool,
    pub morph_targets: usize,
    /// The morph targets by name (`extras.targetNames`, else their index).
    pub targets: Vec<TargetReport>,
    pub textured: bool,
}

#[derive(Serialize)]
pub struct CameraReport {
    /// `/cameras/N`: what `render --camera N` looks through.
    pub index: usize,
    pub name: String,
    /// The node that places it.
    pub node: usize,
    pub projection: &'static str,
}

#[derive(Serialize, Default)]
pub struct InfluenceReport {
    pub skinned_vertices: usize,
    /// Most non-zero weights on one vertex (at most 8: JOINTS_0/WEIGHTS_0 and
    /// JOINTS_1/WEIGHTS_1).
    pub max_influences: usize,
    /// Vertices by number of non-zero weights, 0 to 8.
    pub vertices_by_influences: [usize; 9],
    pub renormalised_vertices: usize,
    pub unweighted_vertices: usize,
}

#[derive(Serialize)]
pub struct ProblemReport {
    pub pointer: String,
    pub message: String,
}

fn problems(list: &[Problem]) -> Vec<ProblemReport> {
    list.iter()
        .map(|p| ProblemReport {
            pointer: p.pointer.clone(),
            message: p.message.clone(),
        })
        .collect()
}

fn interpolation_name(i: Interpolation) -> &'static str {
    match i {
        Interpolation::Step => "STEP",
        Interpolation::Linear => "LINEAR",
        Interpolation::CubicSpline => "CUBICSPLINE",
    }
}

impl Report {
    pub fn of_character(file: &str, c: &Character) -> Self {
        Report {
            file: file.to_owned(),
            loaded: true,
            nodes: c.skeleton.joint_count(),
            skins: skin_reports(c),
            clips: clip_reports(c),
            meshes: mesh_reports(c),
            cameras: camera_reports(c),
            scenes: c.scenes.clone(),
            scene: c.scene,
            influences: influence_report(c),
            warnings: problems(&c.warnings),
            notes: problems(&c.notes),
            errors: Vec::new(),
            compression: None,
            ddm: None,
            retarget: Vec::new(),
        }
    }

    pub fn of_error(file: &str, e: &ImportError) -> Self {
        Report {
            file: file.to_owned(),
            loaded: false,
            nodes: 0,
            skins: Vec::new(),
            clips: Vec::new(),
            meshes: Vec::new(),
            cameras: Vec::new(),
            scenes: Vec::new(),
            scene: 0,
            influences: InfluenceReport::default(),
            warnings: problems(&e.warnings),
            notes: Vec::new(),
            errors: problems(&e.errors),
            compression: None,
            ddm: None,
            retarget: Vec::new(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// The human-readable report.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "{}", self.file);
        if self.loaded {
            let vertices: usize = self.meshes.iter().map(|m| m.vertices).sum();
            let _ = writeln!(
                s,
                "  {} nodes, {} skins, {} meshes ({vertices} vertices), {} clips",
                self.nodes,
                self.skins.len(),
                self.meshes.len(),
                self.clips.len()
            );
        }
        self.skins_text(&mut s);
        self.clips_text(&mut s);
        self.meshes_text(&mut s);
        self.cameras_text(&mut s);
        let i = &self.influences;
        if i.skinned_vertices > 0 {
            let _ = writeln!(
                s,
                "\ninfluences: {} skinned vertices, at most {} per vertex; by count 0-8: {:?}; {} renormalised, {} with no weight",
                i.skinned_vertices,
                i.max_influences,
                i.vertices_by_influences,
                i.renormalised_vertices,
                i.unweighted_vertices
            );
        }
        for (title, list) in [
            ("notes", &self.notes),
            ("warnings", &self.warnings),
            ("errors", &self.errors),
        ] {
            if !list.is_empty() {
                let _ = writeln!(s, "\n{title}");
                for p in list {
                    let pointer = if p.pointer.is_empty() {
                        "(file)"
                    } else {
                        &p.pointer
                    };
                    let _ = writeln!(s, "  {pointer}: {}", p.message);
                }
            }
        }
        if let Some(compression) = &self.compression {
            s.push_str(&compression.to_text());
        }
        if let Some(ddm) = &self.ddm {
            s.push_str(&ddm.to_text());
        }
        for section in &self.retarget {
            s.push_str(&section.to_text());
        }
        s
    }

    /// Each skin with its joints in palette order.
    fn skins_text(&self, s: &mut String) {
        use std::fmt::Write;
        for skin in &self.skins {
            let _ = writeln!(
                s,
                "\nskin {} {:?}: {} joints, root {}, drives mesh nodes {:?}",
                skin.index,
                skin.name,
                skin.joint_count,
                skin.root_joints.join(", "),
                skin.mesh_nodes
            );
            if !skin.non_joint_ancestors.is_empty() {
                let _ = writeln!(
                    s,
                    "  non-joint ancestors: {}",
                    skin.non_joint_ancestors.join(" > ")
                );
            }
            let _ = writeln!(s, "  palette  ordinal  node  parent  name");
            for j in &skin.joints {
                let parent = j.parent.map_or("-".to_string(), |p| p.to_string());
                let _ = writeln!(
                    s,
                    "  {:>7}  {:>7}  {:>4}  {:>6}  {}",
                    j.palette_index, j.ordinal, j.node, parent, j.name
                );
            }
        }
    }

    /// Each clip with its weight tracks and events.
    fn clips_text(&self, s: &mut String) {
        use std::fmt::Write;
        if !self.clips.is_empty() {
            let _ = writeln!(s, "\nclips");
            for c in &self.clips {
                let _ = writeln!(
                    s,
                    "  {:?}: {:.3} s, {} channels ({}){}",
                    c.name,
                    c.duration_secs,
                    c.channels,
                    c.interpolations.join(", "),
                    if c.morph_channels > 0 {
                        format!(", {} morph-weight channels", c.morph_channels)
                    } else {
                        String::new()
                    }
                );
                for t in &c.weight_tracks {
                    let _ = writeln!(
                        s,
                        "    weights of node {}: {} targets, {} keys ({})",
                        t.node, t.targets, t.keys, t.interpolation
                    );
                }
                for p in &c.morph_peaks {
                    let _ = writeln!(
                        s,
                        "    morph targets of {:?} at once: at most {} of {} (at {:.3} s){}",
                        p.node,
                        p.peak,
                        p.targets,
                        p.at_secs,
                        if p.over_limit() {
                            format!(
                                "; over {}{}, what engines blend",
                                p.limit,
                                if p.normals { " with normals" } else { "" }
                            )
                        } else {
                            String::new()
                        }
                    );
                }
                for e in &c.events {
                    let _ = writeln!(s, "    event {:?} at {:.3} s", e.name, e.time_secs);
                }
            }
        }
    }

    /// Each mesh with its morph targets.
    fn meshes_text(&self, s: &mut String) {
        use std::fmt::Write;
        if !self.meshes.is_empty() {
            let _ = writeln!(s, "\nmeshes");
            for m in &self.meshes {
                let _ = writeln!(
                    s,
                    "  {} {:?}: {} vertices, {} triangles, {} primitives{}{}{}",
                    m.index,
                    m.name,
                    m.vertices,
                    m.triangles,
                    m.primitives,
                    if m.skinned { ", skinned" } else { "" },
                    if m.textured { ", textured" } else { "" },
                    if m.morph_targets > 0 {
                        format!(", {} morph targets", m.morph_targets)
                    } else {
                        String::new()
                    }
                );
                for (k, t) in m.targets.iter().enumerate() {
                    let _ = writeln!(
                        s,
                        "    target {k} {:?}: {}; default weight {}",
                        t.name,
                        t.attributes.join(", "),
                        t.default_weight
                    );
                }
            }
        }
    }
}

impl Report {
    /// The scenes (when there are several) and the displayed scene's cameras.
    fn cameras_text(&self, s: &mut String) {
        use std::fmt::Write;
        if self.scenes.len() > 1 {
            let _ = writeln!(s, "\nscenes");
            for (k, name) in self.scenes.iter().enumerate() {
                let shown = if k == self.scene { " (shown)" } else { "" };
                let _ = writeln!(s, "  {k} {name:?}{shown}");
            }
        }
        if !self.cameras.is_empty() {
            let _ = writeln!(s, "\ncameras");
            for c in &self.cameras {
                let _ = writeln!(
                    s,
                    "  {} {:?}: {}, on node {}",
                    c.index, c.name, c.projection, c.node
                );
            }
        }
    }
}

fn camera_reports(c: &Character) -> Vec<CameraReport> {
    c.cameras
        .iter()
        .map(|k| CameraReport {
            index: k.index,
            name: k.name.clone(),
            node: k.node,
            projection: match k.projection {
                crate::character::Projection::Perspective { .. } => "perspective",
                crate::character::Projection::Orthographic { .. } => "orthographic",
            },
        })
        .collect()
}

fn skin_reports(c: &Character) -> Vec<SkinReport> {
    let skeleton = &c.skeleton;
    let name_of = |joint: usize| skeleton.names()[joint].clone();
    c.skins
        .iter()
        .enumerate()
        .map(|(s, skin)| SkinReport {
            name: skin.name.clone(),
            index: skin.index,
            joint_count: skin.skin.len(),
            root_joints: skin
                .root_joints
                .iter()
                .filter_map(|&p| skin.skin.joint(p))
                .map(name_of)
                .collect(),
            non_joint_ancestors: skin
                .non_joint_ancestors
                .iter()
                .map(|&j| name_of(j))
                .collect(),
            mesh_nodes: c
                .instances
                .iter()
                .filter(|i| i.skin == Some(s))
                .map(|i| i.node)
                .collect(),
            joints: (0..skin.skin.len())
                .map(|p| {
                    let joint = skin.skin.joint(p).unwrap_or(0);
                    let parent = skin.palette_parent(p);
                    JointReport {
                        palette_index: p,
                        ordinal: skin.ordinal_of_palette[p],
                        node: c.node_of_skeleton_joint[joint],
                        name: name_of(joint),
                        parent,
                        parent_node: parent
                            .and_then(|pp| skin.skin.joint(pp))
                            .map(|j| c.node_of_skeleton_joint[j]),
                    }
                })
                .collect(),
        })
        .collect()
}

fn clip_reports(c: &Character) -> Vec<ClipReport> {
    let peaks = crate::debug::morph_peak::morph_peaks(c);
    c.clips
        .iter()
        .map(|clip| {
            let mut interpolations: Vec<&'static str> = Vec::new();
            for ch in &clip.channels {
                let name = interpolation_name(ch.interpolation);
                if !interpolations.contains(&name) {
                    interpolations.push(name);
                }
            }
            ClipReport {
                name: clip.clip.name().to_owned(),
                duration_secs: clip.duration_secs(),
                channels: clip.channels.len(),
                interpolations,
                morph_channels: clip.morph_tracks.len(),
                morph_peaks: peaks
                    .iter()
                    .filter(|p| p.clip == clip.clip.name())
                    .cloned()
                    .collect(),
                weight_tracks: clip
                    .morph_tracks
                    .iter()
                    .map(|t| WeightTrackReport {
                        node: t.node,
                        targets: t.targets,
                        keys: t.times.len(),
                        interpolation: interpolation_name(t.interpolation),
                    })
                    .collect(),
                events: clip
                    .clip
                    .events()
                    .iter()
                    .map(|e| EventReport {
                        name: e.name.clone(),
                        time_secs: e.time_secs,
                    })
                    .collect(),
            }
        })
        .collect()
}

fn target_reports(m: &crate::character::MeshData) -> Vec<TargetReport> {
    m.target_names
        .iter()
        .enumerate()
        .map(|(t, name)| {
            let has = |pick: fn(&crate::character::MorphTarget) -> bool| {
                m.primitives
                    .iter()
                    .any(|p| p.morph_targets.get(t).is_some_and(pick))
            };
            let attributes = [
                ("POSITION", has(|x| x.positions.is_some())),
                ("NORMAL", has(|x| x.normals.is_some())),
                ("TANGENT", has(|x| x.tangents.is_some())),
            ]
            .into_iter()
            .filter_map(|(name, present)| present.then_some(name))
            .collect();
            TargetReport {
                name: name.clone(),
                attributes,
                default_weight: m.morph_weights.get(t).copied().unwrap_or(0.0),
            }
        })
        .collect()
}

/// Each mesh (per skin that draws it), by glTF mesh index (`/meshes/N`).
fn mesh_reports(c: &Character) -> Vec<MeshReport> {
    let mut meshes: Vec<&crate::character::MeshData> = c.meshes.iter().collect();
    meshes.sort_by_key(|m| m.index);
    meshes
        .into_iter()
        .map(|m| MeshReport {
            name: m.name.clone(),
            index: m.index,
            vertices: m.primitives.iter().map(|p| p.positions.len()).sum(),
            triangles: m
                .primitives
                .iter()
                .map(|p| p.indices.as_ref().map_or(p.positions.len(), Vec::len) / 3)
                .sum(),
            primitives: m.primitives.len(),
            skinned: m.primitives.iter().any(|p| p.skinning.is_some()),
            morph_targets: m.morph_weights.len(),
            targets: target_reports(m),
            textured: m
                .primitives
                .iter()
                .any(|p| p.material.base_color_texture.is_some()),
        })
        .collect()
}

fn influence_report(c: &Character) -> InfluenceReport {
    let mut influences = InfluenceReport::default();
    for skinning in c
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .filter_map(|p| p.skinning.as_ref())
    {
        influences.renormalised_vertices += skinning.renormalised_vertices;
        influences.unweighted_vertices += skinning.unweighted_vertices;
        for v in 0..skinning.weights.len() {
            let n = skinning.influences(v).filter(|&(_, w)| w > 0.0).count();
            influences.vertices_by_influences[n] += 1;
            influences.max_influences = influences.max_influences.max(n);
            influences.skinned_vertices += 1;
        }
    }
    influences
}
