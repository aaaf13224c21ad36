import type { CredentialFormat } from '../../../../src-shared/contract';

const FORMAT_LABELS: Record<CredentialFormat, string> = {
  http_url: 'http://user:pass@host:port',
  socks5_url: 'socks5://user:pass@host:port',
  host_port_user_pass: 'host:port:user:pass',
  user_pass_at_host_port: 'user:pass@host:port',
};

/** Picks how credentials are written: the main user's line, the builder's strings, an export. */
export function CredentialFormatSelect({
  label,
  value,
  onChange,
  className = 'field',
}: {
  label: string;
  value: CredentialFormat;
  onChange: (format: CredentialFormat) => void;
  className?: string;
}) {
  return (
    <label className={className}>
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as CredentialFormat)}>
        {Object.entries(FORMAT_LABELS).map(([format, text]) => (
          <option key={format} value={format}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
