interface FrameStepProps {
  fps: number;
  /** False when the rate is the fallback, not the file's. */
  known: boolean;
  onStep: (frames: number) => void;
}

const STEPS = [
  { frames: -1, label: 'Previous frame', sign: '‹', testId: 'frame-back' },
  { frames: 1, label: 'Next frame', sign: '›', testId: 'frame-forward' },
];

/** One frame back or forward, around the frame rate the steps use. */
export function FrameStep({ fps, known, onStep }: FrameStepProps) {
  const [back, forward] = STEPS.map(({ frames, label, sign, testId }) => (
    <button key={testId} type="button" className="icon-button" aria-label={label} onClick={() => onStep(frames)} data-testid={testId}>
      <span aria-hidden="true">{sign}</span>
    </button>
  ));
  return (
    <div className="timeline__group" role="group" aria-label="Frame step">
      {back}
      <span className="timeline__fps" data-testid="frame-rate" title={known ? undefined : 'The file does not give its frame rate'}>
        {known ? `${Math.round(fps * 100) / 100} fps` : `${fps} fps (guessed)`}
      </span>
      {forward}
    </div>
  );
}
