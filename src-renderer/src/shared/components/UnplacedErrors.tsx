/** The field errors a form cannot show next to one of its fields (`unplacedFieldErrors`), as one alert. */
export function UnplacedErrors({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul className="field__error" role="alert">
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}
