import { markedParts } from '../../../../../shared/search';

/** Text with the words a search matched in <mark> (issue 46); plain text when there are none. */
export function MarkedText({ text, words }: { text: string; words: readonly string[] | undefined }) {
  if (!words?.length) return <>{text}</>;
  return (
    <>
      {markedParts(text, words).map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}
    </>
  );
}
