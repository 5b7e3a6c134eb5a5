//! The ML deformer's training: poses generated from the character's clips, the reference
//! deformer's vertices at each, the targets (reference minus linear blend, in bind space), their
//! PCA (faer's thin SVD, `skinscope-sparse`) and a map from the pose's features to the
//! components' weights (a ridge regression, and a one-hidden-layer perceptron kept when it
//! generalises better).
//!
//! - **Poses.** Half are the clips' frames (30 Hz, evenly spaced); the other half random mixes
//!   within the clips' ranges: each joint takes a rotation between two of its clip frames' (a
//!   slerp by a random fraction). Without clips, each joint turns up to 60 degrees about a random
//!   axis. The skeleton's roots stay at rest, and the seed is fixed. Held-out poses, drawn the
//!   same way, are only measured.
//! - **Targets.** At each pose the reference gives each vertex's position r: direct delta mush
//!   (the CPU reference) or linear blend plus the muscles settled at the pose by the performer's
//!   own muscle stage. A target is what linear blend must be given to land there: with M the
//!   vertex's blended skin matrix and b its bind position, δ = M⁻¹ r − b, so linear blend of
//!   b + δ is r exactly.
//! - **PCA.** The targets (3 rows a vertex, a column a pose) are compressed to K components by
//!   faer's thin SVD: component k is U's column k, and pose j's weight of it s_k V\[j\]\[k\]. The
//!   PCA is not centred, so the bind pose, whose targets are zero, needs no intercept.
//! - **Features** (`pose::features_into`): per driving joint (one that weighs a vertex, or has a
//!   descendant that does, and has an ancestor in the skin) its skin matrix relative to its
//!   parent's, P_parent⁻¹ P_joint, in 6D form (its rotation's first two columns) minus the
//!   identity's: six numbers, exactly zero at the bind pose.
//! - **Ridge.** A regression without intercept maps the features to the K weights:
//!   (XᵀX + λI) W = XᵀC, by faer's Cholesky, λ the ridge factor times the features' mean square.
//! - **Perceptron.** w = W2 (tanh(W1 f + b1) − tanh(b1)), zero at the bind pose by construction,
//!   fitted to the same weights by full-batch Adam (rate 3e-3, weight decay 1e-3) with inputs and
//!   outputs scaled to unit size; its gradients are written out in `skinscope-sparse` (two
//!   products each way) rather than taken from a deep-learning crate, which would add minutes to
//!   a 2-core clean build for one hidden layer. Under `MlMap::Auto` it is kept only when it lowers
//!   the held-out RMS error by more than 20%; a model keeps its ridge weights either way.
//! - **Limits.** Each weight is clamped to twice the largest met in training, so a pose far
//!   outside the training poses is not extrapolated without end.
//! - **Memory.** The training targets are held once, as f64 (3 values a vertex a pose, at most
//!   50 million: 400 MB, about three times that at the SVD's peak); held-out poses are measured
//!   one at a time.

use glam::{Mat4, Quat, Vec3};

use crate::anim::{LocalPose, Transform};
use crate::character::Character;
use crate::param::ParamError;
use crate::pose::{CharacterPose, PaletteMode, PoseRequest};
use crate::pose::{
    ML_FEATURES_PER_JOINT, ML_MAX_COMPONENTS, ML_MAX_HIDDEN, MlMlp, MlModel, MlPrimitive,
    MlReference, MlStats, features_into,
};

/// The most target values (vertices x 3 x poses) a training holds: 400 MB of f64, and about
/// three times that at the PCA's peak.
pub const MAX_TARGET_VALUES: usize = 50_000_000;
/// The most training poses.
pub const MAX_POSES: usize = 20_000;
/// The most joint transforms the training and held-out poses hold (800 MB).
pub const MAX_POSE_TRANSFORMS: usize = 20_000_000;
/// The most epochs the perceptron trains for.
pub const MAX_EPOCHS: usize = 100_000;

/// The training's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainParams {
    /// Poses trained on: half the clips' frames (evenly spaced), half random.
    pub poses: usize,
    /// Random poses not trained on, for the held-out errors.
    pub held_out: usize,
    /// Components kept (K).
    pub components: usize,
    /// Ridge regularisation, relative to the features' mean square.
    pub ridge: f32,
    pub seed: u64,
    /// The map from the features to the weights.
    pub map: MlMap,
    /// The perceptron's hidden units and full-batch Adam epochs.
    pub hidden: usize,
    pub epochs: usize,
}

/// Which map from the pose's features to the components' weights training keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MlMap {
    /// The ridge regression, or the perceptron when it lowers the held-out RMS error by more
    /// than 20%.
    Auto,
    Ridge,
    Mlp,
}

impl Default for TrainParams {
    fn default() -> Self {
        Self {
            poses: 400,
            held_out: 100,
            components: 32,
            ridge: 1e-4,
            seed: 1,
            map: MlMap::Auto,
            hidden: 128,
            epochs: 2000,
        }
    }
}

/// Why a model was not trained.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("{0}")]
    Param(#[from] ParamError),
    #[error("{0}: nothing is skinned to learn")]
    NothingSkinned(String),
    #[error("{0}: no joint drives the skin below its root")]
    NoDrivingJoint(String),
    #[error(
        "{character}: {vertices} vertices over {poses} poses is more than training holds ({MAX_TARGET_VALUES} values; use fewer poses)"
    )]
    TooManyValues {
        character: String,
        vertices: usize,
        poses: usize,
    },
    #[error(
        "{character}: {poses} poses of {joints} joints is more than training holds ({MAX_POSE_TRANSFORMS} joint transforms; use fewer poses or held-out poses)"
    )]
    TooManyTransforms {
        character: String,
        poses: usize,
        joints: usize,
    },
    /// A training pose could not be posed.
    #[error("a training pose: {0}")]
    Pose(#[from] crate::anim::PoseError),
    /// A numerical step failed (PCA, the ridge regression, the perceptron).
    #[error("{step}: {why}")]
    Solve { step: &'static str, why: String },
}

impl TrainParams {
    /// Each parameter's limits, the broken one named by its field.
    pub fn check(&self) -> Result<(), ParamError> {
        let range = |field, value: usize, low: usize, high: usize| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(ParamError::new(
                    field,
                    value,
                    format!("must be {low} to {high}"),
                ))
            }
        };
        range("poses", self.poses, 2, MAX_POSES)?;
        range("held_out", self.held_out, 1, MAX_POSES)?;
        range("components", self.components, 1, ML_MAX_COMPONENTS)?;
        if !(self.ridge.is_finite() && self.ridge > 0.0) {
            return Err(ParamError::new("ridge", self.ridge, "must be positive"));
        }
        range("hidden", self.hidden, 1, ML_MAX_HIDDEN as usize)?;
        range("epochs", self.epochs, 1, MAX_EPOCHS)?;
        Ok(())
    }
}

/// The reference deformer: a posed frame's vertices of the trained instance, mesh space,
/// every primitive of its mesh in order, concatenated.
pub type Reference<'a> = dyn FnMut(&mut CharacterPose, &mut Vec<Vec3>) + 'a;

/// The first skinned instance: the one trained on.
pub fn trained_instance(c: &Character) -> Option<usize> {
    c.instances.iter().position(|i| i.skin.is_some())
}

/// The driving joints of instance `i`: each palette entry that weighs a vertex of its mesh (or
/// has a descendant that does) and has an ancestor in the skin, with that ancestor's entry.
pub fn driving_joints(c: &Character, i: usize) -> Vec<[u32; 2]> {
    let instance = &c.instances[i];
    let Some(skin) = instance.skin.map(|s| &c.skins[s].skin) else {
        return Vec::new();
    };
    let entry_of_joint = |j: usize| (0..skin.len()).find(|&e| skin.joint(e) == Some(j));
    let mut weighs = vec![false; skin.len()];
    for p in &c.meshes[instance.mesh].primitives {
        let Some(s) = &p.skinning else { continue };
        for v in 0..p.positions.len() {
            for (e, w) in s.influences(v) {
                if w > 0.0 && (e as usize) < weighs.len() {
                    weighs[e as usize] = true;
                }
            }
        }
    }
    // Each entry's nearest ancestor in the skin.
    let parent: Vec<Option<usize>> = (0..skin.len())
        .map(|e| {
            let mut j = skin.joint(e).and_then(|j| c.skeleton.parent(j));
            while let Some(a) = j {
                if let Some(pe) = entry_of_joint(a) {
                    return Some(pe);
                }
                j = c.skeleton.parent(a);
            }
            None
        })
        .collect();
    let mut drives = weighs.clone();
    for e in 0..skin.len() {
        if weighs[e] {
            let mut up = parent[e];
            while let Some(p) = up {
                drives[p] = true;
                up = parent[p];
            }
        }
    }
    (0..skin.len())
        .filter_map(|e| Some([e as u32, parent[e]? as u32]).filter(|_| drives[e]))
        .collect()
}

/// A small, seeded generator (splitmix64): the same seed gives the same poses everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The clips' frames at 30 Hz (at most 2,000, evenly spaced; fewer on a large skeleton), as
/// local poses.
fn clip_frames(c: &Character) -> Vec<Vec<Transform>> {
    let mut times = Vec::new();
    for (k, clip) in c.clips.iter().enumerate() {
        let frames = (clip.duration_secs() * 30.0).ceil().max(1.0) as usize;
        times.extend((0..frames).map(|f| (k, f as f32 / 30.0)));
    }
    // At most 2,000 frames, and 20 million joint transforms.
    let most = (MAX_POSE_TRANSFORMS / c.skeleton.joint_count().max(1)).clamp(1, 2000);
    let step = times.len().div_ceil(most).max(1);
    let mut pose = CharacterPose::new(c);
    (times.iter().step_by(step))
        .filter_map(|&(k, t)| {
            pose.evaluate(c, &PoseRequest::clip(k, t)).ok()?;
            Some(pose.local().as_slice().to_vec())
        })
        .collect()
}

/// The training poses (`count`, from `seed`): every other one a clip frame (evenly spaced over
/// them all), the others random; and the held-out poses, all random. A random pose takes, for
/// each joint, a rotation between two of its clip frames' (a slerp by a random fraction), so it
/// stays within the clips' ranges while mixing the joints freely. Without clips, each joint
/// turns by up to 60 degrees about a random axis from its rest. The skeleton's roots stay at
/// rest: the features do not see the placement.
pub fn training_poses(c: &Character, params: &TrainParams) -> (Vec<LocalPose>, Vec<LocalPose>) {
    let frames = clip_frames(c);
    let rest = c.skeleton.rest();
    let mut rng = Rng(params.seed);
    let random = |rng: &mut Rng| -> LocalPose {
        let joints = (0..rest.len()).map(|j| {
            if c.skeleton.parent(j).is_none() {
                return rest[j];
            }
            if frames.is_empty() {
                let axis = Vec3::new(rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5)
                    .normalize_or(Vec3::X);
                let angle = rng.unit() * 60f32.to_radians();
                let mut t = rest[j];
                t.rotation = (rest[j].rotation * Quat::from_axis_angle(axis, angle)).normalize();
                return t;
            }
            let a = frames[rng.below(frames.len())][j];
            let b = frames[rng.below(frames.len())][j].rotation;
            let mut t = a;
            t.rotation = a.rotation.slerp(b, rng.unit()).normalize();
            t
        });
        LocalPose::from_transforms(joints.collect())
    };
    let mut train = Vec::with_capacity(params.poses);
    let from_clips = if frames.is_empty() {
        0
    } else {
        params.poses / 2
    };
    for n in 0..from_clips {
        let mut pose = frames[n * frames.len() / from_clips].clone();
        for (j, t) in pose.iter_mut().enumerate() {
            if c.skeleton.parent(j).is_none() {
                *t = rest[j];
            }
        }
        train.push(LocalPose::from_transforms(pose));
    }
    while train.len() < params.poses {
        train.push(random(&mut rng));
    }
    let held = (0..params.held_out).map(|_| random(&mut rng)).collect();
    (train, held)
}

/// One posed frame's features and targets, with linear blend's and the reference's mesh-space
/// positions (for the errors).
struct Sample {
    features: Vec<f32>,
    /// Bind-space targets, 3 a vertex.
    targets: Vec<f64>,
    /// Per vertex: its blended skin matrix (`None`: not skinned), bind position, reference.
    vertices: Vec<(Option<Mat4>, Vec3, Vec3)>,
}

fn sample(
    c: &Character,
    (instance, joints): (usize, &[[u32; 2]]),
    local: &LocalPose,
    pose: &mut CharacterPose,
    reference: &mut Reference<'_>,
    scratch: &mut Vec<Vec3>,
) -> Result<Sample, TrainError> {
    pose.compose_local(c, local, PaletteMode::Animated)?;
    reference(pose, scratch);
    let palette = pose.instance_palette(instance).unwrap_or(&[]);
    let mut features = vec![0.0; ML_FEATURES_PER_JOINT * joints.len()];
    features_into(palette, joints, &mut features);
    let mesh = c.instances[instance].mesh;
    let mut vertices = Vec::with_capacity(scratch.len());
    for p in &c.meshes[mesh].primitives {
        let (bind, _) = crate::pose::morphed_vertices(p, pose.morph.of(instance));
        for (v, &b) in bind.iter().enumerate() {
            let m = p.skinning.as_ref().and_then(|s| {
                let influences = s.influences(v).map(|(j, w)| (u32::from(j), w));
                crate::anim::blend_matrix(palette, influences)
            });
            let r = scratch.get(vertices.len()).copied().unwrap_or(b);
            vertices.push((m, b, r));
        }
    }
    let targets = (vertices.iter())
        .flat_map(|&(m, b, r)| {
            let d = m
                .filter(|m| m.determinant().abs() > 1e-12)
                .map_or(Vec3::ZERO, |m| m.inverse().transform_point3(r) - b);
            [f64::from(d.x), f64::from(d.y), f64::from(d.z)]
        })
        .collect();
    Ok(Sample {
        features,
        targets,
        vertices,
    })
}

/// The mesh-space error to the reference of linear blend with `corrective` (3 a vertex, bind
/// space; zeros: linear blend's own): (sum of squares, max).
fn errors(s: &Sample, corrective: &[f32]) -> [f64; 2] {
    let mut e = [0.0f64, 0.0];
    for (v, &(m, b, r)) in s.vertices.iter().enumerate() {
        let Some(m) = m else { continue };
        let d = Vec3::from_slice(&corrective[3 * v..3 * v + 3]);
        let ev = f64::from(m.transform_point3(b + d).distance(r));
        e = [e[0] + ev * ev, e[1].max(ev)];
    }
    e
}

/// The mesh's vertices, when the training's targets and poses fit their limits.
fn check_size(c: &Character, mesh: usize, params: &TrainParams) -> Result<usize, TrainError> {
    let vertices: usize = (c.meshes[mesh].primitives.iter())
        .map(|p| p.positions.len())
        .sum();
    if (3 * vertices).saturating_mul(params.poses) > MAX_TARGET_VALUES {
        return Err(TrainError::TooManyValues {
            character: c.name.clone(),
            vertices,
            poses: params.poses,
        });
    }
    let joints = c.skeleton.joint_count();
    if (params.poses + params.held_out).saturating_mul(joints) > MAX_POSE_TRANSFORMS {
        return Err(TrainError::TooManyTransforms {
            character: c.name.clone(),
            poses: params.poses + params.held_out,
            joints,
        });
    }
    Ok(vertices)
}

/// The perceptron fitted to the PCA weights `coefficients` (n rows of k) from the features
/// `x` (n rows of f), in f32.
fn fit_mlp(
    x: &[f64],
    (n, f, k): (usize, usize, usize),
    coefficients: &[f64],
    params: &TrainParams,
) -> Result<MlMlp, TrainError> {
    let p = skinscope_sparse::MlpParams {
        hidden: params.hidden,
        epochs: params.epochs,
        learning_rate: 3e-3,
        weight_decay: 1e-3,
        seed: params.seed,
    };
    let mlp = skinscope_sparse::train_mlp((n, f, k), x, coefficients, &p).map_err(|e| {
        TrainError::Solve {
            step: "the perceptron",
            why: e.to_string(),
        }
    })?;
    let to_f32 = |v: &[f64]| v.iter().map(|&x| x as f32).collect();
    Ok(MlMlp {
        hidden: mlp.hidden as u32,
        w1: to_f32(&mlp.w1),
        b1: to_f32(&mlp.b1),
        w2: to_f32(&mlp.w2),
    })
}

/// Over the training poses, in bind space: the squared PCA truncation and the model's squared
/// residual in the components' weights. As U is orthonormal, |y − U ŵ|² = |y|² − |c|² +
/// |c − ŵ|², with c the pose's PCA weights (`coefficients`, k a pose) and `norms` its |y|².
fn training_fit(
    model: &MlModel,
    (x, f): (&[f64], usize),
    coefficients: &[f64],
    norms: &[f64],
) -> (f64, f64) {
    let k = model.components as usize;
    let (mut residual, mut truncation, mut weights) = (0.0f64, 0.0f64, vec![0.0f32; k]);
    let mut features = vec![0.0f32; f];
    for (j, c_j) in coefficients.chunks_exact(k).enumerate() {
        (features.iter_mut().zip(&x[j * f..(j + 1) * f])).for_each(|(a, &b)| *a = b as f32);
        model.weights_into(&features, &mut weights);
        let fit = c_j.iter().zip(&weights);
        residual += fit.map(|(a, &b)| (a - f64::from(b)).powi(2)).sum::<f64>();
        truncation += norms[j] - c_j.iter().map(|a| a * a).sum::<f64>();
    }
    (truncation.max(0.0), residual)
}

/// Trains a model of `reference` (named `kind`) on `c`'s first skinned instance.
/// `progress(done, total)` after each pose measured.
pub fn train(
    c: &Character,
    kind: MlReference,
    params: &TrainParams,
    reference: &mut Reference<'_>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<MlModel, TrainError> {
    let start = web_time::Instant::now();
    params.check()?;
    let instance = trained_instance(c).ok_or_else(|| TrainError::NothingSkinned(c.name.clone()))?;
    let mesh = c.instances[instance].mesh;
    let joints = driving_joints(c, instance);
    if joints.is_empty() {
        return Err(TrainError::NoDrivingJoint(c.name.clone()));
    }
    let rows = 3 * check_size(c, mesh, params)?;
    let (train_poses, held_poses) = training_poses(c, params);
    let total = train_poses.len() + held_poses.len();
    let (mut pose, mut scratch) = (CharacterPose::new(c), Vec::new());
    let drive = (instance, &joints[..]);
    let mut sample_at =
        |local: &LocalPose| sample(c, drive, local, &mut pose, reference, &mut scratch);
    let f = ML_FEATURES_PER_JOINT * joints.len();
    let n = train_poses.len();
    let (mut y, mut x) = (Vec::with_capacity(rows * n), Vec::with_capacity(n * f));
    for (done, local) in train_poses.iter().enumerate() {
        let s = sample_at(local)?;
        y.extend_from_slice(&s.targets);
        x.extend(s.features.iter().map(|&v| f64::from(v)));
        progress(done + 1, total);
    }
    let norms: Vec<f64> = y
        .chunks_exact(rows)
        .map(|t| t.iter().map(|v| v * v).sum())
        .collect();
    // PCA: Y (rows x n, a pose a column) = U S Vᵀ; component k is U's column k, pose j's
    // weight s_k V[j][k].
    let svd = skinscope_sparse::thin_svd(rows, n, &y).map_err(|e| TrainError::Solve {
        step: "PCA",
        why: e.to_string(),
    })?;
    drop(y);
    let k = params.components.min(svd.r());
    let (w, limits) = fit_ridge(&x, f, (&svd, k), params.ridge)?;
    let mut model = MlModel {
        reference: kind,
        fingerprint: crate::pose::skeleton_fingerprint(c),
        skeleton_joints: c.skeleton.joint_count() as u32,
        instance: instance as u32,
        mesh: mesh as u32,
        components: k as u32,
        joints: joints.clone(),
        weights: w.iter().map(|&v| v as f32).collect(),
        limits,
        mlp: None,
        primitives: components_of(c, mesh, &svd, k),
        stats: MlStats::default(),
    };
    let coefficients: Vec<f64> = (0..n * k)
        .map(|i| svd.s[i % k] * svd.v_col(i % k)[i / k])
        .collect();
    if params.map != MlMap::Ridge {
        model.mlp = Some(fit_mlp(&x, (n, f, k), &coefficients, params)?);
    }
    let mut held_progress = |done| progress(n + done, total);
    let held = held_out(c, &model, &held_poses, &mut sample_at, &mut held_progress)?;
    let skinned = (model.primitives.iter().zip(&c.meshes[mesh].primitives))
        .filter(|(m, _)| m.is_some())
        .map(|(_, p)| p.positions.len())
        .sum::<usize>()
        .max(1) as f64;
    let rms = |sum: f64, poses: usize| (sum / (skinned * poses.max(1) as f64)).sqrt() as f32;
    let h = held_poses.len();
    let (ridge_rms, mlp_rms) = (rms(held[1][0], h), rms(held[2][0], h));
    // The perceptron is kept when asked for, or when it lowers the held-out error by more
    // than 20%.
    let keep_mlp = match params.map {
        MlMap::Ridge => false,
        MlMap::Mlp => true,
        MlMap::Auto => mlp_rms < 0.8 * ridge_rms,
    };
    if !keep_mlp {
        model.mlp = None;
    }
    let chosen = held[if keep_mlp { 2 } else { 1 }];
    let (truncation, residual) = training_fit(&model, (&x, f), &coefficients, &norms);
    model.stats = MlStats {
        poses: n as u32,
        held_poses: h as u32,
        truncation: truncation.sqrt() as f32,
        residual: residual.sqrt() as f32,
        train_rms: rms(truncation + residual, n),
        train_lbs_rms: rms(norms.iter().sum(), n),
        held_rms: rms(chosen[0], h),
        held_max: chosen[1] as f32,
        held_lbs_rms: rms(held[0][0], h),
        held_lbs_max: held[0][1] as f32,
        seconds: start.elapsed().as_secs_f32(),
        ridge_held_rms: ridge_rms,
        mlp_held_rms: mlp_rms,
    };
    Ok(model)
}

/// The held-out poses' errors, mesh space: per map (linear blend alone, the ridge regression,
/// the perceptron when trained, none otherwise) the sum of squared distances and the largest
/// distance. `progress(done)` after each pose.
fn held_out(
    c: &Character,
    model: &MlModel,
    poses: &[LocalPose],
    sample_at: &mut impl FnMut(&LocalPose) -> Result<Sample, TrainError>,
    progress: &mut impl FnMut(usize),
) -> Result<[[f64; 2]; 3], TrainError> {
    let mut held = [[0.0f64; 2]; 3];
    for (done, local) in poses.iter().enumerate() {
        let s = sample_at(local)?;
        for (sum, by) in held.iter_mut().zip([None, Some(false), Some(true)]) {
            let e = match by {
                None => errors(&s, &vec![0.0; 3 * s.vertices.len()]),
                Some(mlp) if mlp && model.mlp.is_none() => [0.0, 0.0],
                Some(mlp) => measure(c, model, &s, mlp),
            };
            *sum = [sum[0] + e[0], sum[1].max(e[1])];
        }
        progress(done + 1);
    }
    Ok(held)
}

/// The model's error on one sample (`errors`), by its perceptron (`mlp`) or its ridge
/// regression.
fn measure(c: &Character, model: &MlModel, s: &Sample, mlp: bool) -> [f64; 2] {
    let mut weights = vec![0.0; model.components as usize];
    model.weights_by(mlp, &s.features, &mut weights);
    errors(s, &corrective_of(c, model, &weights))
}

/// The ridge regression from the features X (`x`, n rows of `f`, row-major) to the first `k`
/// PCA weights of each pose (C, from `svd`): (XᵀX + λ I) W = Xᵀ C, λ `ridge` times the
/// features' mean square. W (k rows of f) and each weight's limit (twice the largest in
/// training).
fn fit_ridge(
    x: &[f64],
    f: usize,
    (svd, k): (&skinscope_sparse::ThinSvd, usize),
    ridge: f32,
) -> Result<(Vec<f64>, Vec<f32>), TrainError> {
    // Pose j's weight of component kk: s_kk V[j][kk].
    let c_of = |j: usize, kk: usize| svd.s[kk] * svd.v_col(kk)[j];
    let mut a = vec![0.0f64; f * f];
    for row in x.chunks_exact(f) {
        for (i, &xi) in row.iter().enumerate() {
            for (jj, &xj) in row.iter().enumerate().skip(i) {
                a[jj * f + i] += xi * xj;
            }
        }
    }
    for i in 0..f {
        for jj in i + 1..f {
            a[i * f + jj] = a[jj * f + i];
        }
    }
    let trace: f64 = (0..f).map(|i| a[i * f + i]).sum();
    let lambda = f64::from(ridge) * (trace / f as f64).max(1e-12);
    for i in 0..f {
        a[i * f + i] += lambda;
    }
    let mut w = vec![0.0f64; f * k];
    for kk in 0..k {
        for (j, row) in x.chunks_exact(f).enumerate() {
            let cj = c_of(j, kk);
            for (i, &xi) in row.iter().enumerate() {
                w[kk * f + i] += xi * cj;
            }
        }
    }
    skinscope_sparse::solve_spd(f, &a, &mut w).map_err(|e| TrainError::Solve {
        step: "ridge regression",
        why: e.to_string(),
    })?;
    let mut limits = vec![0.0f32; k];
    for j in 0..x.len() / f {
        for (kk, limit) in limits.iter_mut().enumerate() {
            *limit = limit.max(2.0 * c_of(j, kk).abs() as f32);
        }
    }
    Ok((w, limits))
}

/// The first `k` components (U's columns) per primitive of `mesh`, vertex-major (`None` for
/// an unskinned primitive).
fn components_of(
    c: &Character,
    mesh: usize,
    svd: &skinscope_sparse::ThinSvd,
    k: usize,
) -> Vec<Option<MlPrimitive>> {
    let mut primitives = Vec::new();
    let mut row0 = 0;
    for p in &c.meshes[mesh].primitives {
        let nv = p.positions.len();
        let deltas = (0..nv * k)
            .map(|i| {
                let (v, kk) = (i / k, i % k);
                let (u, at) = (svd.u_col(kk), 3 * (row0 + v));
                Vec3::new(u[at] as f32, u[at + 1] as f32, u[at + 2] as f32)
            })
            .collect();
        primitives.push(p.skinning.is_some().then_some(MlPrimitive { deltas }));
        row0 += nv;
    }
    primitives
}

/// The corrective of every vertex of `model`'s mesh of `c` (zero on unskinned primitives), 3 a
/// vertex, bind space, primitives in order.
pub fn corrective_of(c: &Character, model: &MlModel, weights: &[f32]) -> Vec<f32> {
    let prims = &c.meshes[model.mesh as usize].primitives;
    let mut out = Vec::new();
    for (pi, p) in prims.iter().enumerate() {
        for v in 0..p.positions.len() {
            out.extend(model.corrective(pi, v, weights).to_array());
        }
    }
    out
}
