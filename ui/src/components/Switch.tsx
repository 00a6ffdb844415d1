interface SwitchProps {
  checked: boolean;
  disabled: boolean;
  labelledBy: string;
  id?: string;
  testId?: string;
  onToggle: () => void;
}

/** An on/off button announced as a switch. */
export function Switch({ checked, disabled, labelledBy, id, testId, onToggle }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      id={id}
      className="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      disabled={disabled}
      data-testid={testId}
      onClick={onToggle}
    >
      <span className="switch__thumb" aria-hidden="true" />
    </button>
  );
}
