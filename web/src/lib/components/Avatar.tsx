import { initials } from '../format';

interface AvatarProps {
  name: string;
  imageUrl: string | null;
  size?: 'small' | 'large';
}

/**
 * The user's picture, or their initials (at most 2) without one. Decorative: the name is always
 * written next to it or in the control that holds it.
 */
export function Avatar({ name, imageUrl, size = 'small' }: AvatarProps) {
  const className = `avatar avatar--${size}`;
  if (imageUrl) return <img className={className} src={imageUrl} alt="" />;
  return (
    <span className={className} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
