export { fetchJobReviews } from './api/fetch-job-reviews';
export { useRatedProfile } from './api/fetch-public-profile';
export { RatingSummary } from './components/RatingSummary';
export { ReviewCard } from './components/ReviewCard';
export { ReviewsCard } from './components/ReviewsCard';
export { UserReviewsCard } from './components/UserReviewsCard';
