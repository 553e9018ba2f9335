export { LocationBadge } from './components/LocationBadge';
export { LocationBlock } from './components/LocationBlock';
export { LocationPromptBanner } from './components/LocationPromptBanner';
export { browserTimeZone, currentPosition, useLocationSettings, useQuietHoursZoneKeptCurrent } from './hooks/useLocationSettings';
