interface SwitchProps {
  checked: boolean;
  disabled: boolean;
  labelledBy: string;
  onToggle: () => void;
}

/** An on/off button announced as a switch. */
export function Switch({ checked, disabled, labelledBy, onToggle }: SwitchProps) {
  return (
    <button
      type="button"
      role="switch"
      className="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      disabled={disabled}
      onClick={onToggle}
    >
      <span className="switch__thumb" aria-hidden="true" />
    </button>
  );
}
