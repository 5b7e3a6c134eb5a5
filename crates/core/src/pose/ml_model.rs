//! The ML deformer's model: a corrective learnt from a costly reference deformer
//! (direct delta mush, or linear blend plus settled muscles), applied at linear blend's cost.
//!
//! As Unreal's neural morph model: the corrective is K morph-like components in bind space
//! (`components`, PCA of the training targets), added after the morph targets and before
//! skinning; the pose drives their K weights through a linear map fitted by ridge regression
//! (`weights`). The pose's features are, per driving joint, its skin matrix relative to its
//! parent's (`P_parent⁻¹ P_joint`, so neither the mesh's nor the world's placement counts) in
//! 6D form (the rotation's first two columns) minus the identity's: zero at the bind pose,
//! where the weights (no intercept) and so the corrective are zero.
//!
//! Saved as a versioned little-endian binary (`MlModel::to_bytes`), tied to its skeleton (the
//! joints' names and parents, `pose::skeleton_fingerprint`) and to its mesh's vertex counts.

use glam::{Mat3, Mat4, Vec3};

use crate::character::Character;

const MAGIC: &[u8; 8] = b"SKSMLDF\0";
/// The format's version; a file of another is refused.
pub const ML_VERSION: u32 = 1;
/// The most components a model holds (the skin pass's uniform holds 64 weights).
pub const ML_MAX_COMPONENTS: usize = 64;
/// The largest perceptron a model holds.
pub const ML_MAX_HIDDEN: u32 = 1024;
/// Features a driving joint gives: its relative rotation's first two columns.
pub const ML_FEATURES_PER_JOINT: usize = 6;

/// The deformer a model learnt to imitate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MlReference {
    /// Direct delta mush (`--skinning ddm`), with the parameters it was trained with.
    DeltaMush,
    /// Linear blend plus the character's muscles, settled at each pose.
    Muscles,
}

impl MlReference {
    /// In words, as the report and the panel name it.
    pub fn label(self) -> &'static str {
        match self {
            MlReference::DeltaMush => "direct delta mush",
            MlReference::Muscles => "linear blend with settled muscles",
        }
    }
}

/// The most bytes a saved model may take (100,000 vertices of 64 components is 77 MB).
pub const ML_MAX_MODEL_BYTES: u64 = 1 << 30;

/// Why a saved model was not read: the file, or the model in it, named by its path.
#[derive(Debug, thiserror::Error)]
pub enum MlReadError {
    #[error("{}: {source}", path.display())]
    File {
        path: std::path::PathBuf,
        source: crate::files::FileError,
    },
    #[error("{}: {source}", path.display())]
    Model {
        path: std::path::PathBuf,
        source: MlFileError,
    },
}

/// The model saved at `path`, read for `c` (`--ml-deformer` and the panel's Load both read
/// through this).
pub fn read_model(path: &std::path::Path, c: &Character) -> Result<MlModel, MlReadError> {
    let path_buf = || path.to_path_buf();
    let bytes = crate::files::read_capped(path, ML_MAX_MODEL_BYTES).map_err(|source| {
        MlReadError::File {
            path: path_buf(),
            source,
        }
    })?;
    MlModel::from_bytes(&bytes, c).map_err(|source| MlReadError::Model {
        path: path_buf(),
        source,
    })
}

/// How well a model imitates its reference, in the file's units: over the training poses and
/// over poses it was not trained on (`held_*`), its RMS and largest vertex error to the
/// reference, and linear blend's own (what the corrective is to remove).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct MlStats {
    pub poses: u32,
    pub held_poses: u32,
    /// Frobenius norms over the training targets (bind space): what PCA's truncation leaves,
    /// and the regression's residual in the components' weights.
    pub truncation: f32,
    pub residual: f32,
    pub train_rms: f32,
    pub train_lbs_rms: f32,
    pub held_rms: f32,
    pub held_max: f32,
    pub held_lbs_rms: f32,
    pub held_lbs_max: f32,
    pub seconds: f32,
    /// The held-out RMS error of the ridge regression and of the perceptron (0: not trained),
    /// whichever the model keeps.
    pub ridge_held_rms: f32,
    pub mlp_held_rms: f32,
}

/// One primitive's components, vertex-major: vertex v's component k at `v * K + k`.
#[derive(Clone, Debug, PartialEq)]
pub struct MlPrimitive {
    pub deltas: Vec<Vec3>,
}

/// A trained ML deformer.
#[derive(Clone, Debug, PartialEq)]
pub struct MlModel {
    pub reference: MlReference,
    /// The skeleton it was trained on (`pose::skeleton_fingerprint`) and its joint count.
    pub fingerprint: u64,
    pub skeleton_joints: u32,
    /// The skinned instance whose palette drives it, and its mesh (every instance of the mesh
    /// follows the corrective, as the skin pass shares a primitive's words).
    pub instance: u32,
    pub mesh: u32,
    /// Components (K).
    pub components: u32,
    /// Per driving joint, (its palette entry, its parent's) within the instance's palette.
    pub joints: Vec<[u32; 2]>,
    /// K rows of `6 * joints.len()`: weight k = row k · features.
    pub weights: Vec<f32>,
    /// Each weight's bound (twice the largest met in training): a pose far outside the
    /// training poses is not extrapolated without end.
    pub limits: Vec<f32>,
    /// The perceptron that maps the features to the weights instead of `weights`, when
    /// training kept it (it lowered the held-out error by more than 20%, or was asked for).
    pub mlp: Option<MlMlp>,
    /// Per primitive of the mesh (`None`: unskinned).
    pub primitives: Vec<Option<MlPrimitive>>,
    pub stats: MlStats,
}

/// A one-hidden-layer perceptron from the features to the weights: w = W2 (tanh(W1 f + b1) −
/// tanh(b1)), zero at the bind pose (`skinscope_sparse::Mlp`, in f32).
#[derive(Clone, Debug, PartialEq)]
pub struct MlMlp {
    pub hidden: u32,
    /// `hidden` rows of the features.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// K rows of `hidden`.
    pub w2: Vec<f32>,
}

impl MlMlp {
    fn eval(&self, features: &[f32], out: &mut [f32]) {
        let h = self.hidden as usize;
        let f = self.w1.len() / h.max(1);
        out.iter_mut().for_each(|o| *o = 0.0);
        for a in 0..h {
            let row = &self.w1[a * f..(a + 1) * f];
            let z: f32 = row.iter().zip(features).map(|(w, x)| w * x).sum::<f32>() + self.b1[a];
            let act = z.tanh() - self.b1[a].tanh();
            for (k, o) in out.iter_mut().enumerate() {
                *o += self.w2[k * h + a] * act;
            }
        }
    }
}

/// Why a saved model cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MlFileError {
    #[error("not a skinscope ML deformer (no SKSMLDF header)")]
    NotModel,
    #[error("format version {got}; this skinscope reads version {ML_VERSION}")]
    Version { got: u32 },
    #[error("cut short at byte {at} (reading {what})")]
    Truncated { at: usize, what: &'static str },
    #[error("byte {at}: {problem}")]
    Invalid { at: usize, problem: String },
    #[error(
        "made for another skeleton ({got} joints, fingerprint {got_print:016x}) than {character}'s ({want} joints, fingerprint {want_print:016x})"
    )]
    OtherSkeleton {
        character: String,
        got: u32,
        want: usize,
        got_print: u64,
        want_print: u64,
    },
    #[error("made for another mesh: {0}")]
    OtherMesh(String),
}

/// The 6D features of `joints` from an instance's palette into `out` (`6 * joints.len()`).
pub fn features_into(palette: &[Mat4], joints: &[[u32; 2]], out: &mut [f32]) {
    for (pair, f) in joints
        .iter()
        .zip(out.chunks_exact_mut(ML_FEATURES_PER_JOINT))
    {
        let get = |e: u32| palette.get(e as usize).copied().unwrap_or(Mat4::IDENTITY);
        let (joint, parent) = (get(pair[0]), get(pair[1]));
        let relative = Mat3::from_mat4(parent.inverse() * joint);
        let x = relative.x_axis.normalize_or(Vec3::X) - Vec3::X;
        let y = relative.y_axis.normalize_or(Vec3::Y) - Vec3::Y;
        f.copy_from_slice(&[x.x, x.y, x.z, y.x, y.y, y.z]);
    }
}

impl MlModel {
    /// Features the model reads.
    pub fn feature_count(&self) -> usize {
        ML_FEATURES_PER_JOINT * self.joints.len()
    }

    /// The components' weights of a pose whose features are `features`, into `out` (K): by
    /// the perceptron when the model has one, else the ridge regression's, each clamped.
    pub fn weights_into(&self, features: &[f32], out: &mut [f32]) {
        self.weights_by(self.mlp.is_some(), features, out);
    }

    /// `weights_into` by the perceptron (`mlp`, when there is one) or the ridge regression.
    pub fn weights_by(&self, mlp: bool, features: &[f32], out: &mut [f32]) {
        let k = (self.components as usize).min(out.len());
        let out = &mut out[..k];
        match self.mlp.as_ref().filter(|_| mlp) {
            Some(m) => m.eval(features, out),
            None => {
                let f = self.feature_count();
                for (k, w) in out.iter_mut().enumerate() {
                    let row = &self.weights[k * f..(k + 1) * f];
                    *w = row.iter().zip(features).map(|(a, b)| a * b).sum();
                }
            }
        }
        for (w, &limit) in out.iter_mut().zip(&self.limits) {
            *w = w.clamp(-limit, limit);
        }
    }

    /// The components' weights of instance `self.instance`'s palette, `features` scratch.
    pub fn infer(&self, palette: &[Mat4], features: &mut Vec<f32>, out: &mut Vec<f32>) {
        features.resize(self.feature_count(), 0.0);
        out.resize(self.components as usize, 0.0);
        features_into(palette, &self.joints, features);
        self.weights_into(features, out);
    }

    /// Vertex `v` of the mesh's primitive `p`'s corrective under `weights`, bind space.
    pub fn corrective(&self, p: usize, v: usize, weights: &[f32]) -> Vec3 {
        let k = self.components as usize;
        let Some(Some(prim)) = self.primitives.get(p) else {
            return Vec3::ZERO;
        };
        let Some(deltas) = prim.deltas.get(v * k..(v + 1) * k) else {
            return Vec3::ZERO;
        };
        deltas.iter().zip(weights).map(|(d, &w)| *d * w).sum()
    }

    /// The model's bytes (`SKSMLDF\0` layout, see `from_bytes`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let u32s = |out: &mut Vec<u8>, v: u32| out.extend(v.to_le_bytes());
        let f32s = |out: &mut Vec<u8>, v: f32| out.extend(v.to_le_bytes());
        out.extend(MAGIC);
        u32s(&mut out, ML_VERSION);
        out.push(match self.reference {
            MlReference::DeltaMush => 0,
            MlReference::Muscles => 1,
        });
        out.extend(self.fingerprint.to_le_bytes());
        for v in [
            self.skeleton_joints,
            self.instance,
            self.mesh,
            self.components,
            self.joints.len() as u32,
        ] {
            u32s(&mut out, v);
        }
        for pair in &self.joints {
            u32s(&mut out, pair[0]);
            u32s(&mut out, pair[1]);
        }
        self.weights
            .iter()
            .chain(&self.limits)
            .for_each(|&w| f32s(&mut out, w));
        u32s(&mut out, self.mlp.as_ref().map_or(0, |m| m.hidden));
        if let Some(m) = &self.mlp {
            m.w1.iter()
                .chain(&m.b1)
                .chain(&m.w2)
                .for_each(|&w| f32s(&mut out, w));
        }
        u32s(&mut out, self.primitives.len() as u32);
        let k = self.components as usize;
        for p in &self.primitives {
            let vertices = p.as_ref().map_or(0, |p| p.deltas.len() / k.max(1));
            u32s(&mut out, vertices as u32);
            for d in p.iter().flat_map(|p| &p.deltas) {
                d.to_array().iter().for_each(|&x| f32s(&mut out, x));
            }
        }
        let s = &self.stats;
        u32s(&mut out, s.poses);
        u32s(&mut out, s.held_poses);
        for v in [
            s.truncation,
            s.residual,
            s.train_rms,
            s.train_lbs_rms,
            s.held_rms,
            s.held_max,
            s.held_lbs_rms,
            s.held_lbs_max,
            s.seconds,
            s.ridge_held_rms,
            s.mlp_held_rms,
        ] {
            f32s(&mut out, v);
        }
        out
    }

    /// Reads a model saved by `to_bytes` for `c`: the magic, the version, the reference (u8),
    /// the skeleton's fingerprint (u64), its joint count, the instance, the mesh, K and the
    /// driving joint count (u32 each), the joints' palette pairs, the weights (K rows of 6 per
    /// joint) and their K limits, the perceptron's size H (u32, 0: none) and its W1 (H rows of
    /// the features), b1 (H) and W2 (K rows of H), the primitive count and per primitive its vertex count (0:
    /// none) and components (K vec3 a vertex), then the stats. Every count is checked against
    /// `c` and against the bytes left before anything is allocated.
    pub fn from_bytes(bytes: &[u8], c: &Character) -> Result<Self, MlFileError> {
        let mut r = Reader { bytes, at: 0 };
        let (reference, fingerprint, skeleton_joints) = r.header(c)?;
        let (instance, mesh, palette_len) = r.target(c)?;
        let components = r.u32("the component count")?;
        if components as usize > ML_MAX_COMPONENTS {
            return Err(r.invalid(format!(
                "{components} components (at most {ML_MAX_COMPONENTS})"
            )));
        }
        let k = components as usize;
        let joints = r.driving_joints(palette_len)?;
        let features = ML_FEATURES_PER_JOINT * joints.len();
        let weights = r.f32s(k * features, "the weights")?;
        let limits = r.f32s(k, "the weights' limits")?;
        let mlp = r.perceptron(k, features)?;
        let primitives = r.primitives(c, mesh, k)?;
        let stats = r.stats()?;
        if r.at != bytes.len() {
            return Err(r.invalid(format!("{} bytes past the end", bytes.len() - r.at)));
        }
        Ok(Self {
            reference,
            fingerprint,
            skeleton_joints,
            instance,
            mesh,
            components,
            joints,
            weights,
            limits,
            mlp,
            primitives,
            stats,
        })
    }
}

impl Reader<'_> {
    /// The magic, the version, the reference and the skeleton's fingerprint, checked against
    /// `c`: (reference, fingerprint, skeleton joints).
    fn header(&mut self, c: &Character) -> Result<(MlReference, u64, u32), MlFileError> {
        if self.take(8, "the header").ok() != Some(&MAGIC[..]) {
            return Err(MlFileError::NotModel);
        }
        let version = self.u32("the version")?;
        if version != ML_VERSION {
            return Err(MlFileError::Version { got: version });
        }
        let reference = match self.take(1, "the reference")?[0] {
            0 => MlReference::DeltaMush,
            1 => MlReference::Muscles,
            other => return Err(self.invalid(format!("unknown reference {other}"))),
        };
        let fingerprint = u64::from_le_bytes(self.take(8, "the fingerprint")?.try_into().unwrap());
        let skeleton_joints = self.u32("the joint count")?;
        let want_print = crate::pose::skeleton_fingerprint(c);
        if fingerprint != want_print || skeleton_joints as usize != c.skeleton.joint_count() {
            return Err(MlFileError::OtherSkeleton {
                character: c.name.clone(),
                got: skeleton_joints,
                want: c.skeleton.joint_count(),
                got_print: fingerprint,
                want_print,
            });
        }
        Ok((reference, fingerprint, skeleton_joints))
    }

    /// The skinned instance and mesh the model was trained on, which `c` must have: (instance,
    /// mesh, its skin's palette length).
    fn target(&mut self, c: &Character) -> Result<(u32, u32, usize), MlFileError> {
        let instance = self.u32("the instance")?;
        let mesh = self.u32("the mesh")?;
        let skin = (c.instances.get(instance as usize))
            .filter(|i| i.mesh == mesh as usize)
            .and_then(|i| i.skin)
            .map(|s| c.skins[s].skin.len());
        match skin {
            Some(palette_len) => Ok((instance, mesh, palette_len)),
            None => Err(MlFileError::OtherMesh(format!(
                "{} has no skinned instance {instance} of mesh {mesh}",
                c.name
            ))),
        }
    }

    /// The driving joints as (palette entry, its parent's), each within the palette.
    fn driving_joints(&mut self, palette_len: usize) -> Result<Vec<[u32; 2]>, MlFileError> {
        let joint_count = self.u32("the driving joint count")? as usize;
        if joint_count > palette_len {
            return Err(self.invalid(format!(
                "{joint_count} driving joints, more than the skin's {palette_len}"
            )));
        }
        let mut joints = Vec::with_capacity(joint_count);
        for _ in 0..joint_count {
            let pair = [self.u32("a driving joint")?, self.u32("a driving joint")?];
            if pair.iter().any(|&e| e as usize >= palette_len) {
                return Err(self.invalid(format!("palette entry {pair:?} past the skin's")));
            }
            joints.push(pair);
        }
        Ok(joints)
    }

    /// The perceptron of `k` outputs over `features` inputs (`None` when its size is 0).
    fn perceptron(&mut self, k: usize, features: usize) -> Result<Option<MlMlp>, MlFileError> {
        let hidden = self.u32("the perceptron's size")?;
        if hidden > ML_MAX_HIDDEN {
            return Err(self.invalid(format!(
                "a perceptron of {hidden} (at most {ML_MAX_HIDDEN})"
            )));
        }
        if hidden == 0 {
            return Ok(None);
        }
        let h = hidden as usize;
        Ok(Some(MlMlp {
            hidden,
            w1: self.f32s(h * features, "the perceptron")?,
            b1: self.f32s(h, "the perceptron")?,
            w2: self.f32s(k * h, "the perceptron")?,
        }))
    }

    /// Each primitive of `c`'s mesh `mesh`: its `k` components' deltas, or `None` where the
    /// model leaves it out; the vertex counts must be `c`'s.
    fn primitives(
        &mut self,
        c: &Character,
        mesh: u32,
        k: usize,
    ) -> Result<Vec<Option<MlPrimitive>>, MlFileError> {
        let prims = &c.meshes[mesh as usize].primitives;
        let count = self.u32("the primitive count")? as usize;
        if count != prims.len() {
            return Err(MlFileError::OtherMesh(format!(
                "{count} primitives; mesh {mesh} of {} has {}",
                c.name,
                prims.len()
            )));
        }
        let mut primitives = Vec::with_capacity(count);
        for (pi, prim) in prims.iter().enumerate() {
            let vertices = self.u32("a primitive's vertex count")? as usize;
            if vertices == 0 {
                primitives.push(None);
                continue;
            }
            if vertices != prim.positions.len() {
                return Err(MlFileError::OtherMesh(format!(
                    "primitive {pi} has {vertices} vertices; {}'s has {}",
                    c.name,
                    prim.positions.len()
                )));
            }
            let values = self.f32s(3 * vertices * k, "the components")?;
            let deltas = values.chunks_exact(3).map(Vec3::from_slice).collect();
            primitives.push(Some(MlPrimitive { deltas }));
        }
        Ok(primitives)
    }

    /// What training measured.
    fn stats(&mut self) -> Result<MlStats, MlFileError> {
        let poses = self.u32("the stats")?;
        let held_poses = self.u32("the stats")?;
        let s = self.f32s(11, "the stats")?;
        Ok(MlStats {
            poses,
            held_poses,
            truncation: s[0],
            residual: s[1],
            train_rms: s[2],
            train_lbs_rms: s[3],
            held_rms: s[4],
            held_max: s[5],
            held_lbs_rms: s[6],
            held_lbs_max: s[7],
            seconds: s[8],
            ridge_held_rms: s[9],
            mlp_held_rms: s[10],
        })
    }
}

/// Reads the saved bytes in order, every read checked against the end.
struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'b [u8], MlFileError> {
        if n > self.bytes.len() - self.at {
            return Err(MlFileError::Truncated { at: self.at, what });
        }
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, MlFileError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// `n` finite floats (the length checked before allocating).
    fn f32s(&mut self, n: usize, what: &'static str) -> Result<Vec<f32>, MlFileError> {
        let at = self.at;
        let bytes = self.take(n.saturating_mul(4), what)?;
        let values: Vec<f32> = (bytes.chunks_exact(4))
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(i) = values.iter().position(|x| !x.is_finite()) {
            return Err(MlFileError::Invalid {
                at: at + 4 * i,
                problem: format!("{what}: a non-finite value"),
            });
        }
        Ok(values)
    }

    fn invalid(&self, problem: String) -> MlFileError {
        MlFileError::Invalid {
            at: self.at,
            problem,
        }
    }
}
