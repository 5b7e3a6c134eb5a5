//! The ML deformer on the command line: `train-deformer`, which learns a corrective
//! from a reference deformer and saves it, and the posing commands' `--ml-deformer MODEL`,
//! which adds its corrective to linear blend skinning.

use std::path::PathBuf;
use std::sync::Arc;

use skinscope::anim::SkinningMethod;
use skinscope::character::Character;
use skinscope::deform::TrainParams;
use skinscope::deform::ml_train::MlMap;
use skinscope::pose::{MlModel, MlReference};

#[derive(clap::Args, Clone, Debug, Default)]
pub struct MlArgs {
    /// An ML deformer saved by `train-deformer`: its learnt corrective added to linear blend
    /// skinning (needs --skinning lbs, the skinning it was trained against).
    #[arg(long)]
    pub ml_deformer: Option<PathBuf>,
}

impl MlArgs {
    /// The model asked for, read for `c` (refused when made for another skeleton or mesh, or
    /// a model of the muscles beside `muscles`).
    pub fn load(&self, c: &Character, muscles: bool) -> Result<Option<Arc<MlModel>>, String> {
        let Some(path) = &self.ml_deformer else {
            return Ok(None);
        };
        let read = skinscope::pose::read_model(path, c);
        let model = read.map_err(|e| format!("--ml-deformer {e}"))?;
        check_muscles(&model, muscles)?;
        Ok(Some(Arc::new(model)))
    }
}

/// A model of the muscles stands in for them: refused beside `--muscles`, which would move
/// the skin twice.
fn check_muscles(model: &MlModel, muscles: bool) -> Result<(), String> {
    if muscles && model.reference == MlReference::Muscles {
        return Err("--ml-deformer learnt the muscles and stands in for them: give it or --muscles, not both".into());
    }
    Ok(())
}

/// `--ml-deformer` corrects linear blend only: refused with another skinning.
pub fn check_skinning(ml: &MlArgs, skinning: SkinningMethod) -> Result<(), String> {
    if ml.ml_deformer.is_some() && skinning != SkinningMethod::Linear {
        return Err(format!(
            "--ml-deformer corrects linear blend skinning (it was trained against it): give --skinning lbs, not {} skinning",
            skinning.name()
        ));
    }
    Ok(())
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceArg {
    /// Direct delta mush (the --ddm-* parameters).
    Ddm,
    /// Linear blend plus the muscles (--muscles), settled at each pose.
    Muscles,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapArg {
    Auto,
    Ridge,
    Mlp,
}

#[derive(clap::Args, Clone, Debug)]
pub struct TrainArgs {
    /// A .gltf or .glb file (default: the built-in character).
    pub file: Option<PathBuf>,
    /// The deformer to learn.
    #[arg(long, value_enum)]
    pub reference: ReferenceArg,
    /// Where to write the model (read back by --ml-deformer).
    #[arg(long)]
    pub out: PathBuf,
    /// Poses trained on: half the clips' frames, half random mixes of their joints' rotations.
    #[arg(long, allow_negative_numbers = true, default_value_t = TrainParams::default().poses)]
    pub poses: usize,
    /// Random poses not trained on, measured after training.
    #[arg(long, allow_negative_numbers = true, default_value_t = TrainParams::default().held_out)]
    pub held_out: usize,
    /// Components kept by PCA (1 to 64).
    #[arg(long, allow_negative_numbers = true, default_value_t = TrainParams::default().components)]
    pub components: usize,
    /// Ridge regularisation, relative to the features' mean square.
    #[arg(long, allow_negative_numbers = true, default_value_t = TrainParams::default().ridge)]
    pub ridge: f32,
    /// The random poses' seed.
    #[arg(long, allow_negative_numbers = true, default_value_t = TrainParams::default().seed)]
    pub seed: u64,
    /// The map from the pose to the components' weights: the ridge regression, a perceptron
    /// of one hidden layer, or (auto) the perceptron when it lowers the held-out RMS error by
    /// more than 20%.
    #[arg(long, value_enum, default_value = "auto")]
    pub map: MapArg,
    /// The perceptron's hidden units.
    #[arg(long, allow_negative_numbers = true, default_value_t = TrainParams::default().hidden)]
    pub hidden: usize,
    /// The perceptron's training epochs (full-batch Adam).
    #[arg(long, allow_negative_numbers = true, default_value_t = TrainParams::default().epochs)]
    pub epochs: usize,
    /// The muscles of --reference muscles (a JSON file, or `default`: the character's own).
    #[arg(long, default_value = "default")]
    pub muscles: PathBuf,
    #[command(flatten)]
    pub ddm: super::ddm::DdmArgs,
}

/// `skinscope train-deformer`: trains, reports and writes the model.
pub fn train_deformer(args: &TrainArgs) -> Result<(), String> {
    skinscope::files::check_output(&args.out).map_err(|e| e.to_string())?;
    let c = match &args.file {
        Some(file) => super::load_model(file),
        None => skinscope::builtin::character(),
    }
    .map_err(|e| e.to_string())?;
    let params = TrainParams {
        poses: args.poses,
        held_out: args.held_out,
        components: args.components,
        ridge: args.ridge,
        seed: args.seed,
        map: match args.map {
            MapArg::Auto => MlMap::Auto,
            MapArg::Ridge => MlMap::Ridge,
            MapArg::Mlp => MlMap::Mlp,
        },
        hidden: args.hidden,
        epochs: args.epochs,
    };
    params
        .check()
        .map_err(|e| super::values::flag_error("", &e))?;
    let mut progress = super::out::Progress::new("training poses", params.poses);
    let mut tick = |done: usize, total: usize| {
        progress.set_total(total);
        progress.step(done);
    };
    let ddm = match args.reference {
        ReferenceArg::Ddm if args.muscles.as_os_str() != "default" => {
            return Err("--muscles is the reference of --reference muscles".into());
        }
        ReferenceArg::Ddm => Some(args.ddm.precompute_now(&c)?),
        ReferenceArg::Muscles if args.ddm.any_given() => {
            return Err("the --ddm-* options need --reference ddm".into());
        }
        ReferenceArg::Muscles => None,
    };
    type Reference<'a> = Box<skinscope::deform::ml_train::Reference<'a>>;
    let (reference, mut reference_fn): (_, Reference<'_>) = match &ddm {
        Some(ddm) => (
            MlReference::DeltaMush,
            Box::new(skinscope::perform::ml::ddm_reference(&c, ddm)),
        ),
        None => {
            let muscles = super::muscles::MuscleArgs {
                muscles: Some(args.muscles.clone()),
            };
            let input = muscles.input(&c, false)?.ok_or("no muscles")?;
            (
                MlReference::Muscles,
                Box::new(skinscope::perform::ml::muscle_reference(&c, input)),
            )
        }
    };
    let model = skinscope::deform::train(&c, reference, &params, &mut *reference_fn, &mut tick);
    drop(reference_fn);
    drop(progress);
    let model = model.map_err(|e| format!("train-deformer: {e}"))?;
    skinscope::files::write_bytes_whole(&args.out, &model.to_bytes()).map_err(|e| e.to_string())?;
    super::out::println(&report(&c, &model, &args.out));
    Ok(())
}

/// What training measured, in words.
fn report(c: &Character, model: &MlModel, out: &std::path::Path) -> String {
    let s = &model.stats;
    let kind = model.reference.label();
    let ratio = |a: f32, b: f32| if b > 0.0 { 100.0 * a / b } else { 0.0 };
    let map = match &model.mlp {
        Some(m) => format!("a perceptron of {} hidden units", m.hidden),
        None => "ridge regression".to_string(),
    };
    let maps = if s.mlp_held_rms > 0.0 {
        format!(
            "; ridge {:.3e}, perceptron {:.3e} ({:.1}% of ridge's)",
            s.ridge_held_rms,
            s.mlp_held_rms,
            ratio(s.mlp_held_rms, s.ridge_held_rms)
        )
    } else {
        String::new()
    };
    format!(
        "{}: learnt {kind} from {} poses ({} driving joints, {} components, {map}) in {:.1} s, written to {}\n\
         held-out poses ({}): RMS error {:.3e} ({:.1}% of linear blend's {:.3e}), max {:.3e} ({:.1}% of {:.3e}){maps}\n\
         training poses, bind space: RMS error {:.3e} ({:.1}% of linear blend's {:.3e}); PCA truncation {:.3e}, fit residual {:.3e}",
        c.name,
        s.poses,
        model.joints.len(),
        model.components,
        s.seconds,
        out.display(),
        s.held_poses,
        s.held_rms,
        ratio(s.held_rms, s.held_lbs_rms),
        s.held_lbs_rms,
        s.held_max,
        ratio(s.held_max, s.held_lbs_max),
        s.held_lbs_max,
        s.train_rms,
        ratio(s.train_rms, s.train_lbs_rms),
        s.train_lbs_rms,
        s.truncation,
        s.residual,
    )
}
