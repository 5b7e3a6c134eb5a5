//! Pose pipeline benchmarks (criterion). Each `pose/*` measures one update of one character
//! (the crowd: of all 1000), forward playback at 60 Hz; `stage/*` measures each stage on the
//! dense 67-joint set. At the end a table prints ns per joint (skin joints) next to ozz's: the
//! ozz harness's figures from this machine when `SKINSCOPE_OZZ_RESULTS` names what
//! `../shared/ozz-harness/ozz_pose_bench` printed (a side by side), the stored figures otherwise.
//!
//! `cargo bench --bench pose`; `cargo test --benches` runs each once as a smoke test.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group};
use glam::{Mat4, Quat, Vec3};
use skinscope::anim::{
    self, BlendLayer, Channel, Clip, ClipCursor, Interpolation, JointTrack, LocalPose, ModelPose,
    Skeleton, Skin, Track, Transform,
};
use skinscope::character::Character;
use skinscope::pose::{CharacterPose, PoseRequest};
use skinscope::pose::{Crowd, CrowdLod};

const DT: f32 = 1.0 / 60.0;

fn fox() -> Character {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/Fox/Fox.glb");
    skinscope::import::load(&path).expect("Fox.glb from ../shared/gltf")
}

/// A dense synthetic rig: `n` joints (a branching chain), two clips of 31 keys per T, R and S
/// track over 1 s and 1.4 s.
struct Dense {
    skeleton: Skeleton,
    skin: Skin,
    clips: [Clip; 2],
}

/// The dense rig's first clip compressed within a 1.8 m character's bound (0.18 mm at 10 cm),
/// as every compressed dense row uses it, and its report.
fn dense_compressed(d: &Dense) -> (anim::CompressedClip, anim::CompressionReport) {
    let joints = d.skeleton.joint_count();
    let settings = anim::CompressionSettings::uniform(1.8e-4, 0.1, joints);
    anim::compress_clip(&d.skeleton, &d.clips[0], &settings)
}

fn dense(n: usize) -> Dense {
    // A binary tree: joint j hangs under (j - 1) / 2.
    let parents: Vec<Option<usize>> = (0..n).map(|j| j.checked_sub(1).map(|p| p / 2)).collect();
    let rest: Vec<Transform> = (0..n)
        .map(|j| Transform {
            translation: Vec3::new(0.1 * (j % 3) as f32, 0.2, 0.05 * (j % 5) as f32),
            rotation: Quat::from_rotation_z(0.05 * j as f32),
            scale: Vec3::ONE,
        })
        .collect();
    let names = (0..n).map(|j| format!("j{j}")).collect();
    let skeleton = Skeleton::new(names, parents, rest).unwrap();
    let mut model = ModelPose::new(&skeleton);
    anim::local_to_model(&skeleton, &LocalPose::rest(&skeleton), &mut model).unwrap();
    let ibm = model
        .as_slice()
        .iter()
        .map(|m| Mat4::from(*m).inverse())
        .collect();
    let skin = Skin::all_joints(&skeleton, ibm).unwrap();
    let clip = |duration: f32, seed: f32| {
        let times: Vec<f32> = (0..31).map(|k| k as f32 * duration / 30.0).collect();
        let tracks = (0..n)
            .flat_map(|j| {
                let f = |k: usize| seed + j as f32 * 0.37 + k as f32 * 0.21;
                let t = Track::new(
                    times.clone(),
                    (0..31)
                        .map(|k| Vec3::new(f(k).sin() * 0.1, 0.2, f(k).cos() * 0.05))
                        .collect(),
                    Interpolation::Linear,
                )
                .unwrap();
                let r = Track::new(
                    times.clone(),
                    (0..31)
                        .map(|k| {
                            Quat::from_euler(
                                glam::EulerRot::XYZ,
                                f(k).sin(),
                                (0.7 * f(k)).cos(),
                                0.3,
                            )
                        })
                        .collect(),
                    Interpolation::Linear,
                )
                .unwrap();
                let s = Track::new(
                    times.clone(),
                    (0..31)
                        .map(|k| Vec3::splat(1.0 + 0.05 * f(k).sin()))
                        .collect(),
                    Interpolation::Linear,
                )
                .unwrap();
                [
                    JointTrack {
                        joint: j,
                        channel: Channel::Translation(t),
                    },
                    JointTrack {
                        joint: j,
                        channel: Channel::Rotation(r),
                    },
                    JointTrack {
                        joint: j,
                        channel: Channel::Scale(s),
                    },
                ]
            })
            .collect();
        Clip::new("dense", n, tracks, Vec::new()).unwrap()
    };
    Dense {
        skeleton,
        skin,
        clips: [clip(1.0, 0.0), clip(1.4, 2.0)],
    }
}

/// Scratch for the anim-level pipeline on a bare skeleton.
struct Scratch {
    a: LocalPose,
    b: LocalPose,
    blended: LocalPose,
    model: ModelPose,
    /// What `compose` writes the palette by, and the palette (the skin's entries).
    plan: anim::PalettePlan,
    palette: Vec<Mat4>,
    cursors: [ClipCursor; 2],
    time: f32,
}

/// Which of `Scratch`'s local poses a frame composes.
enum Pose {
    Sampled,
    Blended,
}

impl Scratch {
    fn new(d: &Dense) -> Self {
        Self {
            a: LocalPose::rest(&d.skeleton),
            b: LocalPose::rest(&d.skeleton),
            blended: LocalPose::rest(&d.skeleton),
            model: ModelPose::new(&d.skeleton),
            plan: anim::PalettePlan::new([(&d.skin, 0)]).unwrap(),
            palette: vec![Mat4::IDENTITY; d.skin.len()],
            cursors: [ClipCursor::new(&d.clips[0]), ClipCursor::new(&d.clips[1])],
            time: 0.0,
        }
    }

    fn single(&mut self, d: &Dense) {
        self.time = anim::wrap_time(self.time + DT, d.clips[0].duration_secs());
        anim::sample_clip(
            &d.skeleton,
            &d.clips[0],
            self.time,
            &mut self.cursors[0],
            &mut self.a,
        )
        .unwrap();
        self.compose(d, Pose::Sampled);
    }

    /// Local to model and the palette in one pass, as a character's pose is
    /// (`anim::local_to_model_and_palette`): the same work as ozz's local-to-model job and the
    /// harness's palette loop.
    fn compose(&mut self, d: &Dense, pose: Pose) {
        let local = match pose {
            Pose::Sampled => &self.a,
            Pose::Blended => &self.blended,
        };
        anim::local_to_model_and_palette(
            &d.skeleton,
            local,
            &mut self.model,
            &self.plan,
            &mut self.palette,
        )
        .unwrap();
    }

    fn blend(&mut self, d: &Dense) {
        self.time = anim::wrap_time(self.time + DT, 1.0);
        let (ta, tb) = (
            self.time * d.clips[0].duration_secs(),
            self.time * d.clips[1].duration_secs(),
        );
        anim::sample_clip(
            &d.skeleton,
            &d.clips[0],
            ta,
            &mut self.cursors[0],
            &mut self.a,
        )
        .unwrap();
        anim::sample_clip(
            &d.skeleton,
            &d.clips[1],
            tb,
            &mut self.cursors[1],
            &mut self.b,
        )
        .unwrap();
        let layers = [
            BlendLayer {
                pose: &self.a,
                weight: 0.4,
            },
            BlendLayer {
                pose: &self.b,
                weight: 0.6,
            },
        ];
        anim::blend_poses(&layers, &self.a, &mut self.blended).unwrap();
        self.compose(d, Pose::Blended);
    }
}

/// What a row is compared with: the ozz harness's case (`../shared/ozz-harness/ozz_pose_bench`)
/// and ozz-animation 0.16's ns/joint on it on the machine they were stored from (g++ -O3, SSE2, one thread, a
/// 2 vCPU AMD EPYC).
enum Ozz {
    /// The harness's case of the same name.
    Same(f64),
    /// The harness's case of another name (the same work, done by ozz's own jobs).
    Case(&'static str, f64),
    /// A stored figure only: the harness has no such case.
    Stored(f64),
    None,
}

impl Ozz {
    fn case<'a>(&'a self, id: &'a str) -> Option<&'a str> {
        match self {
            Ozz::Same(_) => Some(id),
            Ozz::Case(case, _) => Some(case),
            Ozz::Stored(_) | Ozz::None => None,
        }
    }

    fn stored(&self) -> Option<f64> {
        match self {
            Ozz::Same(ns) | Ozz::Case(_, ns) | Ozz::Stored(ns) => Some(*ns),
            Ozz::None => None,
        }
    }
}

/// (bench id, skin joints per update, what it is compared with).
const ROWS: &[(&str, usize, Ozz)] = &[
    ("pose/fox_single", 24, Ozz::Same(15.4)),
    ("pose/fox_blend", 24, Ozz::Same(31.5)),
    (
        "pose/fox_single_all_tracks",
        24,
        Ozz::Case("pose/fox_single", 15.4),
    ),
    ("pose/dense67_single", 67, Ozz::Same(21.0)),
    (
        "pose/dense67_compressed_single",
        67,
        Ozz::Case("pose/dense67_single", 21.0),
    ),
    ("pose/dense67_blend", 67, Ozz::Same(36.2)),
    ("pose/dense256_single", 256, Ozz::Same(20.6)),
    ("pose/crowd1000_fox_blend", 24_000, Ozz::Same(31.7)),
    ("crowd/fox1000_blend_2thread", 24_000, Ozz::None),
    ("crowd/fox10000_blend_1thread", 240_000, Ozz::None),
    ("crowd/fox10000_blend_2thread", 240_000, Ozz::None),
    ("crowd/fox100000_blend_2thread_lod", 2_400_000, Ozz::None),
    ("stage/sample", 67, Ozz::Same(12.7)),
    (
        "stage/sample_compressed",
        67,
        Ozz::Case("stage/sample", 12.7),
    ),
    (
        "stage/sample_compressed_between_keys",
        67,
        Ozz::Case("stage/sample", 12.7),
    ),
    ("stage/sample_backward", 67, Ozz::None),
    ("stage/sample_compressed_backward", 67, Ozz::None),
    ("stage/sample_random", 67, Ozz::None),
    ("stage/sample_compressed_random", 67, Ozz::None),
    ("stage/fox_walk_sample", 24, Ozz::None),
    ("stage/fox_walk_sample_compressed", 24, Ozz::None),
    ("stage/blend", 67, Ozz::Same(2.2)),
    ("stage/local_to_model", 67, Ozz::Same(5.3)),
    ("stage/palette", 67, Ozz::Same(3.1)),
    ("stage/local_to_model_and_palette", 67, Ozz::Stored(8.4)),
];

/// Every stage at once on the Fox (see `fox_full_pipeline`).
fn full_pipeline_request(fox: &Character, survey: usize, walk: usize) -> PoseRequest {
    use skinscope::pose::{ClipTime, Inertial, LayerBlend, PoseLayer, Transition, TransitionKind};
    let at = |clip, time_secs| ClipTime { clip, time_secs };
    let neck = fox.skeleton.find("b_Neck_04").unwrap();
    let mask = std::sync::Arc::new(anim::JointMask::from_roots(&fox.skeleton, &[(neck, 1.0)]));
    let legs = skinscope::pose::find_legs(fox);
    let ground = skinscope::scene::Ground::parse(
        r#"{"steps": [{"min": [-50, 10], "max": [50, 100], "height": 8}]}"#,
    )
    .unwrap();
    let mut request = PoseRequest::clip(walk, 0.0).with_blend(survey, 0.3);
    request.transition = Some(Transition {
        from: at(survey, 1.0),
        from_blend: None,
        kind: TransitionKind::Inertialize(Inertial {
            to: at(walk, 0.0),
            to_blend: None,
            from_rate: 1.0,
            to_rate: 1.0,
            half_life_secs: 1e6,
            elapsed_secs: 0.1,
            carried_secs: None,
        }),
    });
    request.layers = vec![
        PoseLayer {
            clip: at(survey, 0.5),
            weight: 0.8,
            mask: Some(mask),
            blend: LayerBlend::Override,
            fading_out: None,
        },
        PoseLayer {
            clip: at(survey, 0.7),
            weight: 0.5,
            mask: None,
            blend: LayerBlend::Additive {
                reference: Some(at(survey, 0.0)),
            },
            fading_out: None,
        },
    ];
    request.feet = Some(skinscope::pose::FootIk {
        ground: std::sync::Arc::new(ground),
        pelvis: skinscope::pose::common_ancestor(fox, &legs),
        legs: legs
            .iter()
            .map(|&chain| skinscope::pose::Leg { chain, lock: None })
            .collect(),
        weight: 1.0,
    });
    request
}

/// The Fox with clip `clip` given a track for every joint's translation, rotation and scale:
/// the undriven ones one key each at the rest value, as gltf2ozz fills them.
fn every_track(fox: &Character, clip: usize) -> Character {
    use skinscope::anim::Property;
    let mut every = fox.clone();
    let original = &fox.clips[clip].clip;
    let mut tracks = original.tracks().to_vec();
    for (joint, rest) in fox.skeleton.rest().iter().enumerate() {
        for property in [Property::Translation, Property::Rotation, Property::Scale] {
            if tracks
                .iter()
                .any(|t| t.joint == joint && t.channel.property() == property)
            {
                continue;
            }
            let linear = Interpolation::Linear;
            let channel = match property {
                Property::Translation => Channel::Translation(
                    Track::new(vec![0.0], vec![rest.translation], linear).unwrap(),
                ),
                Property::Rotation => {
                    Channel::Rotation(Track::new(vec![0.0], vec![rest.rotation], linear).unwrap())
                }
                Property::Scale => {
                    Channel::Scale(Track::new(vec![0.0], vec![rest.scale], linear).unwrap())
                }
            };
            tracks.push(JointTrack { joint, channel });
        }
    }
    let joints = original.joint_count();
    every.clips[clip].clip =
        Clip::new(original.name(), joints, tracks, original.events().to_vec()).unwrap();
    every
}

/// `pose/fox_single_all_tracks`: the Fox's walk sampled from every T/R/S track.
fn fox_all_tracks(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    fox: &Character,
    walk: usize,
) {
    // Like for like with ozz: gltf2ozz gives every joint a translation, rotation and scale
    // track, filling the ones the file leaves undriven with their rest value; ours samples only
    // the driven ones. This row samples them all.
    let (every, walk_every) = (every_track(fox, walk), walk);
    let mut pose_every = CharacterPose::new(&every);
    let mut t_every = 0.0;
    group.bench_function("fox_single_all_tracks", |b| {
        b.iter(|| {
            t_every = anim::wrap_time(t_every + DT, every.clips[walk_every].duration_secs());
            let request = PoseRequest::at(Some(walk_every), black_box(t_every));
            pose_every.evaluate(&every, &request).unwrap();
        })
    });
}

/// `crowd/fox100000_blend_2thread_lod`.
fn crowd_lod(
    threads: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    fox: &Character,
    (survey, walk): (usize, usize),
) {
    // 100,000 with level of detail, seen from the middle of one edge of their grid at a
    // character's height: members beyond 10, 20 and 40 heights posed every 2nd, 4th, 8th frame.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let spacing = skinscope::draw::crowd_spacing(fox, (survey, walk));
    let mut crowd = Crowd::new(fox, 100_000, (survey, walk), spacing);
    let height = skinscope::pose::character_height(fox);
    let (lo, _) = crowd.bounds((Vec3::ZERO, Vec3::ZERO));
    let eye = Vec3::new(0.0, height, lo.z - 2.0 * spacing);
    let lod = CrowdLod::for_height(height);
    let mut clock = 0.0;
    pool.install(|| crowd.update_lod(fox, clock, eye, lod));
    let posed: f64 = crowd.rates.iter().map(|&r| 1.0 / f64::from(r)).sum();
    eprintln!(
        "crowd/fox100000_blend_2thread_lod: {:.0} of 100000 members posed a frame on average",
        posed
    );
    threads.bench_function("fox100000_blend_2thread_lod", |b| {
        b.iter(|| {
            clock += DT;
            pool.install(|| crowd.update_lod(fox, black_box(clock), eye, lod));
        })
    });
}

fn benches(c: &mut Criterion) {
    let fox = fox();
    let survey = fox
        .clips
        .iter()
        .position(|k| k.clip.name() == "Survey")
        .unwrap();
    let walk = fox
        .clips
        .iter()
        .position(|k| k.clip.name() == "Walk")
        .unwrap();
    let mut group = c.benchmark_group("pose");
    let mut pose = CharacterPose::new(&fox);
    let mut t = 0.0;
    group.bench_function("fox_single", |b| {
        b.iter(|| {
            t = anim::wrap_time(t + DT, fox.clips[walk].duration_secs());
            pose.evaluate(&fox, &PoseRequest::at(Some(walk), black_box(t)))
                .unwrap();
        })
    });
    fox_all_tracks(&mut group, &fox, walk);
    let mut ratio = 0.0;
    group.bench_function("fox_blend", |b| {
        b.iter(|| {
            ratio = anim::wrap_time(ratio + DT, 1.0);
            let ta = ratio * fox.clips[survey].duration_secs();
            let request = PoseRequest::clip(survey, black_box(ta)).with_blend(walk, 0.5);
            pose.evaluate(&fox, &request).unwrap();
        })
    });
    // The whole pipeline (layers, a transition, root motion, IK) on the Fox: a walk/survey blend, an inertialized
    // switch in progress, an override layer on the neck, an additive layer, and foot IK on its
    // four legs over a step (each leg solved, the pelvis lowered).
    let full = full_pipeline_request(&fox, survey, walk);
    let mut elapsed = 0.0;
    group.bench_function("fox_full_pipeline", |b| {
        b.iter(|| {
            elapsed = anim::wrap_time(elapsed + DT, 1.0);
            let mut request = full.clone();
            if let Some(clip) = request.clip.as_mut() {
                clip.time_secs = black_box(elapsed);
            }
            pose.evaluate(&fox, &request).unwrap();
        })
    });
    for n in [67, 256] {
        let d = dense(n);
        let mut s = Scratch::new(&d);
        group.bench_function(format!("dense{n}_single"), |b| {
            b.iter(|| s.single(black_box(&d)))
        });
        if n == 67 {
            group.bench_function("dense67_blend", |b| b.iter(|| s.blend(black_box(&d))));
            // The same clip compressed (a 1.8 m character's bound, 0.18 mm at 10 cm), sampled
            // directly, then composed as above.
            let (packed, _) = dense_compressed(&d);
            let mut cursor = ClipCursor::for_compressed(&packed);
            group.bench_function("dense67_compressed_single", |b| {
                b.iter(|| {
                    s.time = anim::wrap_time(s.time + DT, packed.duration_secs());
                    anim::sample_compressed(
                        &d.skeleton,
                        &packed,
                        black_box(s.time),
                        &mut cursor,
                        &mut s.a,
                    )
                    .unwrap();
                    s.compose(&d, Pose::Sampled);
                })
            });
        }
    }
    // One thread: the per-joint figure compares with ozz's single-threaded one. The bench's
    // own thread is the pool's (as ozz's harness poses on its own thread): handing each update
    // to a pool thread and waiting for it cost about 90 us an update on a 2-core VM.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build()
        .unwrap();
    let mut crowd = Crowd::new(&fox, 1000, (survey, walk), 2.0);
    let mut clock = 0.0;
    group.bench_function("crowd1000_fox_blend", |b| {
        b.iter(|| {
            clock += DT;
            one.install(|| crowd.update(&fox, black_box(clock)));
        })
    });
    group.finish();

    // Crowd sizes and thread counts for the notes: one update of all members.
    let mut threads = c.benchmark_group("crowd");
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for (members, pool) in [(1000, &two), (10_000, &one), (10_000, &two)] {
        let n = pool.current_num_threads();
        let mut crowd = Crowd::new(&fox, members, (survey, walk), 2.0);
        let mut clock = 0.0;
        threads.bench_function(format!("fox{members}_blend_{n}thread"), |b| {
            b.iter(|| {
                clock += DT;
                pool.install(|| crowd.update(&fox, black_box(clock)));
            })
        });
    }
    crowd_lod(&mut threads, &fox, (survey, walk));
    threads.finish();

    let d = dense(67);
    let mut s = Scratch::new(&d);
    s.blend(&d);
    let mut stages = c.benchmark_group("stage");
    stages.bench_function("sample", |b| {
        b.iter(|| {
            s.time = anim::wrap_time(s.time + DT, 1.0);
            anim::sample_clip(
                &d.skeleton,
                &d.clips[0],
                black_box(s.time),
                &mut s.cursors[0],
                &mut s.a,
            )
            .unwrap();
        })
    });
    let (packed, _) = dense_compressed(&d);
    sample_compressed(&mut stages, (&d, &packed), &mut s.a);
    sample_directions(&mut stages, (&d, &packed), &mut s.a);
    fox_walk_sample(&mut stages, &fox, walk);
    stages.bench_function("blend", |b| {
        b.iter(|| {
            let layers = [
                BlendLayer {
                    pose: &s.a,
                    weight: 0.4,
                },
                BlendLayer {
                    pose: &s.b,
                    weight: 0.6,
                },
            ];
            anim::blend_poses(black_box(&layers), &s.a, &mut s.blended).unwrap();
        })
    });
    stages.bench_function("local_to_model", |b| {
        b.iter(|| anim::local_to_model(&d.skeleton, black_box(&s.blended), &mut s.model).unwrap())
    });
    stages.bench_function("palette", |b| {
        b.iter(|| {
            let model = black_box(&s.model);
            anim::build_palette_into(model, &d.skin, Mat4::IDENTITY, &mut s.palette).unwrap()
        })
    });
    stages.bench_function("local_to_model_and_palette", |b| {
        b.iter(|| {
            anim::local_to_model_and_palette(
                &d.skeleton,
                black_box(&s.blended),
                &mut s.model,
                &s.plan,
                &mut s.palette,
            )
            .unwrap()
        })
    });
    stages.finish();
}

/// The dense67 clip compressed (as `pose/dense67_compressed_single`), sampled at 60 Hz (a new
/// row of keys decoded every other frame) and at one time (between the same keys: the frame's
/// own cost, as a raw clip's).
fn sample_compressed(
    stages: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    (d, packed): (&Dense, &anim::CompressedClip),
    pose: &mut LocalPose,
) {
    let mut cursor = ClipCursor::for_compressed(packed);
    let mut time = 0.0;
    stages.bench_function("sample_compressed", |b| {
        b.iter(|| {
            time = anim::wrap_time(time + DT, packed.duration_secs());
            anim::sample_compressed(&d.skeleton, packed, black_box(time), &mut cursor, pose)
                .unwrap();
        })
    });
    stages.bench_function("sample_compressed_between_keys", |b| {
        b.iter(|| {
            anim::sample_compressed(&d.skeleton, packed, black_box(0.51), &mut cursor, pose)
                .unwrap();
        })
    });
}

/// The dense67 clip, raw and compressed (as `sample_compressed`), played backward at 60 Hz and
/// sampled at random times (a seeded sequence of 1,024): ACL's decoding costs the same in all
/// three directions; the compressed clip decodes two rows at each random time.
fn sample_directions(
    stages: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    (d, packed): (&Dense, &anim::CompressedClip),
    pose: &mut LocalPose,
) {
    let clip = &d.clips[0];
    let mut seed = 0x9e37_79b9_u32;
    let random: Vec<f32> = (0..1024)
        .map(|_| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 * clip.duration_secs()
        })
        .collect();
    let (mut raw, mut compressed) = (ClipCursor::new(clip), ClipCursor::for_compressed(packed));
    let mut time = 0.0;
    stages.bench_function("sample_backward", |b| {
        b.iter(|| {
            time = anim::wrap_time(time - DT, clip.duration_secs());
            anim::sample_clip(&d.skeleton, clip, black_box(time), &mut raw, pose).unwrap();
        })
    });
    stages.bench_function("sample_compressed_backward", |b| {
        b.iter(|| {
            time = anim::wrap_time(time - DT, packed.duration_secs());
            anim::sample_compressed(&d.skeleton, packed, black_box(time), &mut compressed, pose)
                .unwrap();
        })
    });
    let mut k = 0;
    stages.bench_function("sample_random", |b| {
        b.iter(|| {
            k = (k + 1) % random.len();
            anim::sample_clip(&d.skeleton, clip, black_box(random[k]), &mut raw, pose).unwrap();
        })
    });
    stages.bench_function("sample_compressed_random", |b| {
        b.iter(|| {
            k = (k + 1) % random.len();
            let t = black_box(random[k]);
            anim::sample_compressed(&d.skeleton, packed, t, &mut compressed, pose).unwrap();
        })
    });
}

/// The Fox's walk sampled at 60 Hz, raw and compressed as the viewer's `--compressed` does
/// (`compression_settings`: 1e-4 of its height at each joint's skin reach).
fn fox_walk_sample(
    stages: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    fox: &Character,
    walk: usize,
) {
    let clip = &fox.clips[walk].clip;
    let settings = skinscope::pose::compression_settings(fox, None);
    let (packed, _) = anim::compress_clip(&fox.skeleton, clip, &settings);
    let mut pose = LocalPose::rest(&fox.skeleton);
    let (mut raw, mut cursor) = (ClipCursor::new(clip), ClipCursor::for_compressed(&packed));
    let mut time = 0.0;
    stages.bench_function("fox_walk_sample", |b| {
        b.iter(|| {
            time = anim::wrap_time(time + DT, clip.duration_secs());
            anim::sample_clip(&fox.skeleton, clip, black_box(time), &mut raw, &mut pose).unwrap();
        })
    });
    stages.bench_function("fox_walk_sample_compressed", |b| {
        b.iter(|| {
            time = anim::wrap_time(time + DT, clip.duration_secs());
            anim::sample_compressed(
                &fox.skeleton,
                &packed,
                black_box(time),
                &mut cursor,
                &mut pose,
            )
            .unwrap();
        })
    });
}

criterion_group!(pose_benches, benches);

/// Prints ns per skin joint from criterion's estimates, next to ozz-animation's: the figures
/// of the harness run on this machine when `SKINSCOPE_OZZ_RESULTS` names its output (the ratio is
/// then a side by side), otherwise the stored ones, measured on another machine.
fn print_table() {
    let root = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("criterion");
    let here = std::env::var_os("SKINSCOPE_OZZ_RESULTS").and_then(|path| {
        let path = std::path::PathBuf::from(path);
        match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|text| ozz_results(&text))
        {
            Ok(results) => Some(results),
            Err(e) => {
                eprintln!(
                    "SKINSCOPE_OZZ_RESULTS: {}: {e}; the table shows the stored ozz figures, from another machine",
                    path.display()
                );
                None
            }
        }
    });
    let mut lines = Vec::new();
    for (id, joints, compared) in ROWS {
        let path = root.join(id).join("new/estimates.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let (Some(mean), Some(sd)) = (
            json["mean"]["point_estimate"].as_f64(),
            json["std_dev"]["point_estimate"].as_f64(),
        ) else {
            continue;
        };
        let per = mean / *joints as f64;
        let ozz = match &here {
            Some(results) => compared.case(id).and_then(|c| results.get(c).copied()),
            None => compared.stored(),
        };
        lines.push(format!(
            "| {id:<30} | {mean:>12.0} | {:>6.1} | {per:>8.2} | {} |",
            100.0 * sd / mean,
            ozz.map_or("-".to_string(), |o| format!("{o:.1} ({:.2}x)", per / o))
        ));
    }
    if !lines.is_empty() {
        let ozz = if here.is_some() {
            "ozz ns/joint, this machine (ours / ozz) "
        } else {
            "ozz ns/joint, the stored run's machine (ours / that: not a side by side; see SKINSCOPE_OZZ_RESULTS)"
        };
        println!("\n| benchmark                      | ns/update    | sd %   | ns/joint | {ozz} |");
        println!("|--------------------------------|--------------|--------|----------|---|");
        for l in lines {
            println!("{l}");
        }
    }
}

/// ns per skin joint of each case in the ozz harness's output: its `RESULT CASE JOINTS MEDIAN
/// MEAN` lines (ns per update), the median taken, as `table.py` takes it. The error names the
/// line and what is wrong there; no RESULT line at all is an error too.
fn ozz_results(text: &str) -> Result<std::collections::HashMap<String, f64>, String> {
    let mut results = std::collections::HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        if fields.next() != Some("RESULT") {
            continue;
        }
        let at = |what: &str| format!("line {}: {what} in {line:?}", n + 1);
        let (Some(case), Some(joints), Some(median)) =
            (fields.next(), fields.next(), fields.next())
        else {
            return Err(at("expected RESULT CASE JOINTS MEDIAN MEAN"));
        };
        let joints: u32 = joints
            .parse()
            .map_err(|_| at("JOINTS is not a whole number"))?;
        let median: f64 = median.parse().map_err(|_| at("MEDIAN is not a number"))?;
        if joints == 0 || !(median.is_finite() && median > 0.0) {
            return Err(at("JOINTS and MEDIAN must be above zero"));
        }
        results.insert(case.to_string(), median / f64::from(joints));
    }
    if results.is_empty() {
        return Err("no RESULT lines (what ozz_pose_bench prints)".into());
    }
    Ok(results)
}

/// The dense67 clip's bytes, raw and compressed, per joint-second beside ozz's 56,561 bytes for
/// the same 1 s clip of 67 joints (keys quantized, not reduced): 844 per joint-second.
fn print_compression() {
    let (_, r) = dense_compressed(&dense(67));
    let per = |bytes: usize| bytes as f32 / (67.0 * r.duration_secs);
    println!(
        "\ndense67 clip (1 s, 67 joints, 31 keys a track): raw {} B, compressed {} B ({:.2}x), max error {:.2e} at a 1.8e-4 bound; {:.0} -> {:.0} B per joint-second (ozz: 844)",
        r.raw_bytes,
        r.compressed_bytes,
        r.ratio(),
        r.max_error,
        per(r.raw_bytes),
        per(r.compressed_bytes)
    );
}

fn main() {
    pose_benches();
    Criterion::default().configure_from_args().final_summary();
    // Only after a real measurement (`cargo bench`), not in `cargo test --benches`.
    if std::env::args().any(|a| a == "--bench") {
        print_table();
        print_compression();
    }
}
