//! The panel's retargeting: a source file (a BVH take, or a glTF's clips) opened beside the
//! character, its joint map auto-mapped and changed by hand, the chains' offsets and the
//! settings; Apply adds its clips to the character shown, and Save writes the character's file
//! with every clip applied added as glTF animations (`import::add_retargeted`). The map saves to
//! and loads from the `--retarget-map` format.

use std::path::{Path, PathBuf};

use super::Viewer;
use glam::Vec3;

use crate::anim::{
    JointMap, LocalPose, ModelPose, Retarget, RetargetScratch, RetargetSettings, Skeleton,
    local_to_model,
};
use crate::import::{self, RetargetPlan};

/// What the panel's retargeting holds.
#[derive(Default)]
pub struct RetargetState {
    /// The source opened, its skeleton and the map onto the character shown.
    pub source: Option<RetargetSource>,
    pub settings: RetargetSettings,
    /// The sources applied (their clips added), each with the plan it was applied with.
    pub applied: Vec<(PathBuf, RetargetPlan)>,
    /// How many clips the character had before the first Apply.
    base_clips: Option<usize>,
    /// What the last action said.
    pub said: Option<String>,
}

/// A source file beside the character.
pub struct RetargetSource {
    pub path: PathBuf,
    pub skeleton: Skeleton,
    pub map: JointMap,
    /// What the section draws, worked out when the source, the map or the settings change.
    pub view: RetargetView,
}

/// What the section draws of the two skeletons, in model space: the source at rest, the
/// character at rest and in its retarget pose (the source's rest retargeted onto it), and the
/// character's body parts (the rows its table lists).
pub struct RetargetView {
    pub source_rest: Vec<Vec3>,
    pub target_rest: Vec<Vec3>,
    pub retarget_pose: Vec<Vec3>,
    pub target_parts: Vec<Option<String>>,
}

impl RetargetView {
    fn of(
        source: &Skeleton,
        target: &Skeleton,
        map: &JointMap,
        settings: &RetargetSettings,
    ) -> Self {
        let positions = |s: &Skeleton, local: &LocalPose| {
            let mut model = ModelPose::new(s);
            let _ = local_to_model(s, local, &mut model);
            let at = model.as_slice().iter().map(|m| Vec3::from(m.translation));
            at.collect::<Vec<_>>()
        };
        let retarget = Retarget::with(source, target, map.indices(), settings.clone());
        let mut scratch = RetargetScratch::new(source, target);
        let mut posed = LocalPose::rest(target);
        let rest = LocalPose::rest(source);
        let _ = retarget.frame((source, &rest), target, &mut scratch, &mut posed);
        Self {
            source_rest: positions(source, &rest),
            target_rest: positions(target, &LocalPose::rest(target)),
            retarget_pose: positions(target, &posed),
            target_parts: crate::anim::body_parts(target),
        }
    }
}

impl RetargetState {
    /// The plan the map and settings make (the map's pairs, by name).
    pub fn plan(&self, target: &Skeleton) -> Option<RetargetPlan> {
        let source = self.source.as_ref()?;
        Some(RetargetPlan {
            pairs: Some(source.map.pairs(&source.skeleton, target)),
            settings: self.settings.clone(),
        })
    }
}

/// What the panel asks of retargeting.
#[derive(Clone, Debug, PartialEq)]
pub enum RetargetCommand {
    /// Open a source file beside the character, auto-mapped.
    Open(PathBuf),
    /// Target joint takes its motion from this source joint (none: its own), by hand.
    Pair(usize, Option<usize>),
    Settings(RetargetSettings),
    SaveMap(PathBuf),
    LoadMap(PathBuf),
    /// Add the source's clips to the character shown.
    Apply,
    /// Write the character's file with every applied clip added.
    SaveCharacter(PathBuf),
}

impl Viewer {
    pub(super) fn retarget_command(&mut self, command: RetargetCommand) {
        let said = match command {
            RetargetCommand::Open(path) => self.open_retarget_source(&path),
            RetargetCommand::Pair(target, source) => {
                if let Some(s) = &mut self.retarget.source {
                    s.map.set(target, source);
                }
                self.refresh_retarget_view();
                return;
            }
            RetargetCommand::Settings(settings) => {
                self.retarget.settings = settings;
                self.refresh_retarget_view();
                return;
            }
            RetargetCommand::SaveMap(path) => self.save_retarget_map(&path),
            RetargetCommand::LoadMap(path) => self.load_retarget_map(&path),
            RetargetCommand::Apply => self.apply_retarget(),
            RetargetCommand::SaveCharacter(path) => self.save_retargeted(&path),
        };
        self.retarget.said = Some(said.unwrap_or_else(|e| e));
    }

    /// Opens `source` beside the character (the Retarget section's Open source), then reads
    /// `map` over its auto-mapping; what was done is what the section says.
    pub fn open_retarget(&mut self, source: &Path, map: Option<&Path>) -> Result<(), String> {
        let mut said =
            (self.open_retarget_source(source)).map_err(|e| format!("--retarget-from {e}"))?;
        if let Some(map) = map {
            said = self
                .load_retarget_map(map)
                .map_err(|e| format!("--retarget-map {e}"))?;
        }
        self.controls.retarget_source = source.display().to_string();
        self.retarget.said = Some(said);
        Ok(())
    }

    fn open_retarget_source(&mut self, path: &Path) -> Result<String, String> {
        let skeleton = import::source_skeleton(path, &self.reach()).map_err(|e| e.to_string())?;
        let target = &self.character.skeleton;
        let map = JointMap::auto(&skeleton, target);
        let matched = map.source_of.iter().flatten().count();
        let view = RetargetView::of(&skeleton, target, &map, &self.retarget.settings);
        self.retarget.source = Some(RetargetSource {
            path: path.to_path_buf(),
            skeleton,
            map,
            view,
        });
        Ok(format!(
            "{}: {matched} of the character's joints auto-mapped",
            path.display()
        ))
    }

    /// The section's drawing worked out again for the map and settings as they are now.
    fn refresh_retarget_view(&mut self) {
        let settings = &self.retarget.settings;
        if let Some(s) = &mut self.retarget.source {
            s.view = RetargetView::of(&s.skeleton, &self.character.skeleton, &s.map, settings);
        }
    }

    fn save_retarget_map(&self, path: &Path) -> Result<String, String> {
        let plan = (self.retarget.plan(&self.character.skeleton)).ok_or("open a source first")?;
        crate::files::write_bytes_whole(path, plan.to_json().as_bytes())
            .map_err(|e| e.to_string())?;
        Ok(format!("wrote {}", path.display()))
    }

    fn load_retarget_map(&mut self, path: &Path) -> Result<String, String> {
        let plan = RetargetPlan::read(path)?;
        let source = self.retarget.source.as_mut().ok_or("open a source first")?;
        if let Some(pairs) = plan.pairs() {
            source.map = JointMap::from_pairs(&source.skeleton, &self.character.skeleton, pairs);
        }
        self.retarget.settings = plan.settings;
        self.refresh_retarget_view();
        Ok(format!("read {}", path.display()))
    }

    /// The source's clips retargeted with the map and settings, added to the character, the
    /// first of them playing.
    fn apply_retarget(&mut self) -> Result<String, String> {
        let plan = (self.retarget.plan(&self.character.skeleton)).ok_or("open a source first")?;
        let path = self.retarget.source.as_ref().map(|s| s.path.clone());
        let path = path.ok_or("open a source first")?;
        let (clips, matched) =
            import::clips_from(&path, &self.character, Some(&plan), &self.reach())
                .map_err(|e| e.to_string())?;
        self.retarget
            .base_clips
            .get_or_insert(self.character.clips.len());
        let added = self.take_clips(clips);
        self.retarget.applied.push((path.clone(), plan));
        Ok(format!(
            "added {added} clips from {}; {}",
            path.display(),
            matched.summary()
        ))
    }

    /// The character's file with every applied source's clips added, as GLB.
    fn save_retargeted(&self, out: &Path) -> Result<String, String> {
        let file = self.source.as_ref().ok_or(
            "the built-in character has no file of its own: open a file, or use skinscope retarget",
        )?;
        if self.retarget.applied.is_empty() {
            return Err("apply a source first".into());
        }
        let mut document =
            import::document::Document::open(file, &self.reach()).map_err(|e| e.to_string())?;
        let mut base = self.character.clone();
        base.clips
            .truncate(self.retarget.base_clips.unwrap_or(base.clips.len()));
        let mut count = 0;
        for (path, plan) in &self.retarget.applied {
            let added = import::add_retargeted(
                &mut document,
                &base,
                std::slice::from_ref(path),
                Some(plan),
                import::Keys::SourceRate,
                &self.reach(),
            )
            .map_err(|e| e.to_string())?;
            count += added.iter().map(|a| a.clips.len()).sum::<usize>();
        }
        crate::files::write_bytes_whole(out, &document.to_glb()).map_err(|e| e.to_string())?;
        Ok(format!("wrote {} with {count} clips added", out.display()))
    }

    /// Where the character with its clips is saved by default.
    pub fn retargeted_path(&self) -> Option<PathBuf> {
        self.source.as_deref().and_then(import::retargeted_path)
    }
}
