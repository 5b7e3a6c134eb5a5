//! `skinscope check`: a skinning lint. It reads the bind pose the way a skinning bug shows up:
//! every joint's bind-pose palette entry (mesh space) should be one common matrix, the identity
//! when the vertices are authored in the mesh node's space; vertices should sit near the joints
//! that move them; weights should sum to one, and more than four influences are reported
//! (skinscope draws eight; a four-influence engine drops the rest). This file is the report
//! (findings, their severity and kinds); the rules are `check/rules.rs`.

use glam::{Mat4, Vec3};
use serde::Serialize;

/// Entries closer than this (rotation/scale elements; translation relative to the character's
/// size) count as equal.
const TOLERANCE: f32 = 1e-3;

/// The most palette entries tried as the skin's common one.
const CANDIDATES: usize = 32;

/// How much a finding matters: errors make `check` exit 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warn",
            Severity::Info => "info",
        }
    }
}

/// What a finding is about (serialised in snake case, e.g. `"joint_mismatch"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// A joint's bind-pose palette entry differs from the skin's common one.
    JointMismatch,
    /// Every joint's bind entry is one common offset (vertices authored in another space).
    AuthoredOffset,
    /// A joint's rest pose (its node transform) differs from its bind pose by a rotation: legal
    /// glTF, the inverse binds agree with the vertices.
    RestPoseDiffers,
    /// The skin has no inverse bind matrices (each the identity): legal glTF.
    NoInverseBinds,
    MeshOffSkeleton,
    ImplausibleWeights,
    WeightsNotNormalised,
    MoreThanFourInfluences,
    UnusedJoints,
    /// A clip drives more morph targets of one mesh at once than engines blend (8; 4 when the
    /// targets move normals).
    MorphTargetsAtOnce,
    /// A skin lists a joint before its parent (glTF allows any order; engines that build their
    /// skeleton in one pass over the list, and `fix`, want parents first).
    JointsOutOfOrder,
    Limits,
    /// The requested frame (or the bind pose) could not be posed.
    PoseFailed,
    /// The requested frame's palette holds non-finite numbers.
    NonFinitePalette,
    /// A problem the importer worked around (`inspect` and `render` list the same ones).
    ImportWarning,
    /// `--skin-on gpu`: the GPU's skinned vertices of the requested frame differ from the CPU
    /// reference, or are not finite.
    GpuSkinningDiffers,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Finding {
    pub severity: Severity,
    pub kind: FindingKind,
    /// The joint concerned, by name, when there is one.
    pub joint: Option<String>,
    pub palette_index: Option<usize>,
    pub message: String,
    /// The Khronos glTF-Validator's issue code for the same problem, where it has one
    /// (`ACCESSOR_WEIGHTS_NON_NORMALIZED`, `INVALID_IBM_ACCESSOR_COUNT`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<&'static str>,
    /// The JSON pointer of what the importer reported (`/skins/0/inverseBindMatrices`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
}

impl Finding {
    fn error(kind: FindingKind, joint: Option<(String, usize)>, message: String) -> Self {
        Self {
            severity: Severity::Error,
            kind,
            palette_index: joint.as_ref().map(|j| j.1),
            joint: joint.map(|j| j.0),
            message,
            code: None,
            pointer: None,
        }
    }

    fn warning(kind: FindingKind, message: String) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::info(kind, message)
        }
    }

    fn info(kind: FindingKind, message: String) -> Self {
        Self {
            severity: Severity::Info,
            kind,
            joint: None,
            palette_index: None,
            message,
            code: None,
            pointer: None,
        }
    }

    /// What the importer reported (a warning, or a note as information), with its code.
    fn imported(severity: Severity, problem: &crate::character::Problem) -> Self {
        let message = if problem.pointer.is_empty() {
            problem.message.clone()
        } else {
            format!("{}: {}", problem.pointer, problem.message)
        };
        Self {
            severity,
            code: problem.code,
            pointer: Some(problem.pointer.clone()).filter(|p| !p.is_empty()),
            ..Self::info(FindingKind::ImportWarning, message)
        }
    }

    /// The same finding with the glTF-Validator's code.
    fn coded(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct SkinCheck {
    pub skin: String,
    /// The skin's index in the file (`/skins/N`).
    pub index: usize,
    pub mesh_node: usize,
    /// The bind-pose palette entry most joints share (column-major), and whether it is the
    /// identity.
    pub common_matrix: [f32; 16],
    pub common_is_identity: bool,
    pub joints: usize,
    pub max_influences: usize,
    /// The joints (their ordinals in the skin's `joints` list) whose inverse bind disagrees
    /// with the skeleton: the errors of kind `joint_mismatch`, which `fix` recomputes.
    pub broken_inverse_binds: Vec<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub file: String,
    pub skins: Vec<SkinCheck>,
    pub findings: Vec<Finding>,
    /// Fraction of pixels that differ between bind and identity renders (when a GPU was there).
    pub bind_identity_pixel_difference: Option<f64>,
    /// `--skin-on gpu`: the requested frame's vertices as the GPU's skin pass computed them,
    /// against the CPU reference.
    pub gpu_skinning: Option<GpuSkinning>,
}

/// The GPU's skinned vertices of a frame against the CPU reference.
#[derive(Clone, Copy, Debug, Serialize, PartialEq)]
pub struct GpuSkinning {
    /// "lbs" or "dqs".
    pub skinning: &'static str,
    pub vertices: usize,
    /// The largest distance between a GPU vertex and its CPU reference, in the file's units,
    /// and as a fraction of the posed bounds' diagonal.
    pub max_distance: f32,
    pub max_relative: f32,
}

/// Vertices further apart than this fraction of the bounds' diagonal make an error.
pub const GPU_SKINNING_TOLERANCE: f32 = 1e-5;

impl CheckReport {
    /// Records the GPU-versus-CPU comparison of the requested frame's skinned vertices: an
    /// error when any vertex is not finite or lies over `GPU_SKINNING_TOLERANCE` of the bounds'
    /// diagonal from the reference.
    pub fn add_gpu_skinning(
        &mut self,
        skinning: crate::anim::SkinningMethod,
        gpu: &crate::posed::PosedVertices,
        cpu: &crate::posed::PosedVertices,
    ) {
        let points = || cpu.instances.iter().flat_map(|(p, _)| p.iter().copied());
        let (lo, hi) = points().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
        let diagonal = if lo.x <= hi.x {
            (hi - lo).length().max(1e-6)
        } else {
            1.0
        };
        let finite = gpu
            .instances
            .iter()
            .all(|(p, n)| p.iter().chain(n).all(|v| v.is_finite()));
        let max_distance = if finite {
            gpu.max_distance(cpu)
        } else {
            f32::INFINITY
        };
        let result = GpuSkinning {
            skinning: match skinning {
                crate::anim::SkinningMethod::Linear => "lbs",
                crate::anim::SkinningMethod::DualQuaternion => "dqs",
                crate::anim::SkinningMethod::Blended => "per-joint",
                crate::anim::SkinningMethod::DeltaMush => "ddm",
            },
            vertices: points().count(),
            max_distance,
            max_relative: max_distance / diagonal,
        };
        if result.max_relative.is_nan() || result.max_relative > GPU_SKINNING_TOLERANCE {
            self.findings.push(Finding::error(
                FindingKind::GpuSkinningDiffers,
                None,
                format!(
                    "the GPU's skinned vertices ({}) lie up to {} ({:.2e} of the bounds' diagonal) from the CPU reference; {} is allowed",
                    result.skinning, max_distance, result.max_relative, GPU_SKINNING_TOLERANCE
                ),
            ));
        }
        self.gpu_skinning = Some(result);
    }
}

impl CheckReport {
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut s = format!("{}\n", self.file);
        for skin in &self.skins {
            let m = Mat4::from_cols_array(&skin.common_matrix);
            let _ = writeln!(
                s,
                "skin {:?} on node {}: {} joints, at most {} influences per vertex; common bind entry {}",
                skin.skin,
                skin.mesh_node,
                skin.joints,
                skin.max_influences,
                if skin.common_is_identity {
                    "identity".to_string()
                } else {
                    describe(&m)
                }
            );
        }
        if let Some(g) = &self.gpu_skinning {
            let _ = writeln!(
                s,
                "GPU skin pass ({}) vs CPU reference over {} vertices: at most {:.3e} apart ({:.2e} of the bounds' diagonal)",
                g.skinning, g.vertices, g.max_distance, g.max_relative
            );
        }
        if let Some(f) = self.bind_identity_pixel_difference {
            let _ = writeln!(
                s,
                "bind vs identity renders: {:.3}% of pixels differ",
                f * 100.0
            );
        }
        for f in &self.findings {
            let code = f.code.map(|c| format!(" [{c}]")).unwrap_or_default();
            let _ = writeln!(s, "{:<5} {}{code}", f.severity.label(), f.message);
        }
        let _ = writeln!(s, "{} errors, {} warnings", self.errors(), self.warnings());
        s
    }
}

mod rules;

pub use rules::check;
use rules::describe;
