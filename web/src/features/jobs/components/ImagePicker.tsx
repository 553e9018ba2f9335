import { useCallback, useId, useRef, type ChangeEvent } from 'react';
import { MAX_JOB_IMAGES } from '../../../../../shared/limits';
import type { JobImage, JobImages } from '../hooks/useJobImages';

/** The job form's photos: a file picker, previews with upload progress, and remove buttons. */
export function ImagePicker({ images: { images, problems, add, remove } }: { images: JobImages }) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const problemsId = `${inputId}-problems`;
  const input = useRef<HTMLInputElement>(null);
  const full = images.length >= MAX_JOB_IMAGES;

  function pick(event: ChangeEvent<HTMLInputElement>) {
    add(Array.from(event.target.files ?? []));
    // Cleared, so picking the same file again (after removing it) is a change too.
    event.target.value = '';
  }

  function removeImage(id: string) {
    remove(id);
    // The removed image's button is gone; the picker is the next sensible place to be.
    input.current?.focus();
  }

  return (
    <div className="field image-picker">
      <label htmlFor={inputId} className="field__label">
        Photos
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept="image/*"
        multiple
        disabled={full}
        onChange={pick}
        aria-describedby={problems.length ? `${hintId} ${problemsId}` : hintId}
        aria-invalid={problems.length ? true : undefined}
      />
      <p id={hintId} className="field__hint">
        Up to {MAX_JOB_IMAGES} images, 5MB each ({images.length} of {MAX_JOB_IMAGES} chosen).
      </p>
      {problems.length ? (
        <ul id={problemsId} className="field__error image-picker__problems" role="alert">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : null}
      {images.length ? (
        <ul className="image-picker__list" aria-label="Chosen photos">
          {images.map((image, index) => (
            <ImageTile key={image.id} image={image} position={index + 1} onRemove={() => removeImage(image.id)} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function ImageTile({ image, position, onRemove }: { image: JobImage; position: number; onRemove(): void }) {
  const name = image.kind === 'picked' ? image.file.name : `Photo ${position}`;
  return (
    <li className="image-picker__tile">
      {image.kind === 'picked' ? <LocalImage file={image.file} alt={name} /> : <img src={image.url} alt={name} />}
      {image.kind === 'picked' && image.progress !== null ? (
        <progress className="image-picker__progress" value={image.progress} max={100} aria-label={`Upload of ${name}`} />
      ) : null}
      <button type="button" className="button button--small button--secondary" onClick={onRemove} aria-label={`Remove ${name}`}>
        Remove
      </button>
    </li>
  );
}

/** A preview of a file not uploaded yet; its object URL lives exactly as long as the <img>. */
function LocalImage({ file, alt }: { file: File; alt: string }) {
  const showFile = useCallback(
    (img: HTMLImageElement | null) => {
      if (!img) return;
      const url = URL.createObjectURL(file);
      img.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );
  return <img ref={showFile} alt={alt} />;
}
