/** Small inline SVG icons (the system fonts lack some symbol glyphs); they take the text colour. */

const common = {
  width: 14,
  height: 14,
  viewBox: "0 0 16 16",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 1.6,
  strokeLinecap: "round" as const,
  strokeLinejoin: "round" as const,
};

/** Two overlapping sheets: duplicate. */
export function CopyIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <rect x="5" y="5" width="9" height="9" rx="1.5" />
      <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
    </svg>
  );
}

/** A cross: remove. */
export function CloseIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <path d="M4 4l8 8M12 4l-8 8" />
    </svg>
  );
}

/** A padlock: a setting fixed for now. */
export function LockIcon() {
  return (
    <svg {...common} width={11} height={11} aria-hidden="true">
      <rect x="3" y="7" width="10" height="7" rx="1.5" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
    </svg>
  );
}

/** Circular arrow: reset. */
export function ResetIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <path d="M2.5 8a5.5 5.5 0 1 0 1.7-4" />
      <path d="M2.5 2.5v3h3" />
    </svg>
  );
}

/** Bar and triangle: step once. */
export function StepIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <path d="M4 3l7 5-7 5z" fill="currentColor" />
      <path d="M13 3v10" />
    </svg>
  );
}

/** Arrow into a tray: download / export. */
export function DownloadIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <path d="M8 2v8M4.5 6.5 8 10l3.5-3.5M2.5 13.5h11" />
    </svg>
  );
}

/** Arrow out of a tray: import / upload. */
export function UploadIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <path d="M8 10V2M4.5 5.5 8 2l3.5 3.5M2.5 13.5h11" />
    </svg>
  );
}

/** Chain link: share. */
export function LinkIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <path d="M6.5 9.5a3 3 0 0 0 4.2 0l2.3-2.3a3 3 0 0 0-4.2-4.2l-.8.8" />
      <path d="M9.5 6.5a3 3 0 0 0-4.2 0L3 8.8A3 3 0 0 0 7.2 13l.8-.8" />
    </svg>
  );
}

/** A die: repeat on other seeds. */
export function DieIcon() {
  return (
    <svg {...common} aria-hidden="true">
      <rect x="2" y="2" width="12" height="12" rx="2.5" />
      <circle cx="5.5" cy="5.5" r="0.9" fill="currentColor" />
      <circle cx="8" cy="8" r="0.9" fill="currentColor" />
      <circle cx="10.5" cy="10.5" r="0.9" fill="currentColor" />
    </svg>
  );
}
