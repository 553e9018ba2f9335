/**
 * The message catalogue: every user-facing text of the spec, verbatim, in one place.
 * API errors and UI toasts both read from here so that a text is never spelled twice.
 * Texts marked "ours" are not in the spec; they cover cases the spec is silent on.
 */
export const MSG = {
  auth: {
    allFieldsRequired: 'All fields are required',
    passwordTooShort: 'Password must be at least 8 characters long',
    passwordsDoNotMatch: 'Passwords do not match',
    invalidRole: 'Invalid role specified',
    adminExists: 'An admin account already exists. Only one admin account is allowed.',
    emailAndPasswordRequired: 'Email and password are required',
    invalidEmail: 'Please enter a valid email address', // ours
    tooManySignIns: 'Too many sign-in attempts. Please try again later.',
    tooManySignUps: 'Too many sign-up attempts. Please try again later.',
    authenticationRequired: 'Authentication required',
    insufficientPermissions: 'Insufficient permissions',
    profileNotFound: 'Profile not found',
    /** A suspended user signing in (Cognito: "User is disabled.") or calling the API with a token issued before. */
    accountSuspended: 'Your account has been suspended. Please contact support if you think this is a mistake.', // ours
    accountProfileNotFound: 'Account profile not found. Please sign up again to create a new account.',
    failedToLoadProfile: 'Failed to load profile. Please try signing in again.',
    noUserData: 'Authentication failed - no user data received',
    failedToSignIn: 'Failed to sign in',
    failedToCreateAccount: 'Failed to create account',
    signedIn: 'Successfully signed in! Redirecting to your dashboard...',
    accountCreated: 'Account created successfully! Please check your email to verify your account before signing in.',
    checkingAuthentication: 'Checking authentication...',
    redirectingToDashboard: 'Redirecting to your dashboard...',
    alreadySignedIn: 'You are already signed in.',
    failedToSignOut: 'Failed to sign out',
    newPasswordRequired: 'Your account has a temporary password. Choose a new password to finish signing in.', // ours
    newPasswordSessionExpired: 'This sign-in has expired. Please sign in again with your temporary password.', // ours
  },
  /** Sign-in errors, matched by substring of the backend's error (spec 1 §8). */
  signInErrors: [
    { contains: 'invalid login credentials', text: 'Invalid email or password. Please check your credentials and try again.' },
    {
      contains: 'email not confirmed',
      // The spec says "link"; the email carries a code (docs/decisions/0314-email-verification-by-code.md).
      text: 'Please verify your email address before signing in. Check your inbox for the verification code.',
    },
    { contains: 'too many requests', text: 'Too many sign-in attempts. Please wait a moment and try again.' },
    {
      contains: 'user not found',
      text: 'No account found with this email address. Please check your email or sign up for a new account.',
    },
    { contains: 'weak password', text: 'Password is too weak. Please choose a stronger password.' },
    { contains: 'password length', text: 'Password must be at least 6 characters long.' },
    { contains: 'rate limit', text: 'Too many attempts. Please wait a few minutes before trying again.' },
    { contains: 'network', text: 'Network error. Please check your connection and try again.' },
  ],
  signInFallback: 'An error occurred. Please try again later.',
  verify: {
    title: 'Check Your Email',
    noEmail: 'No email address found. Please sign up again.',
    resendFailed: 'Failed to resend verification email',
    resent: 'Verification email sent! Please check your inbox.',
    sending: 'Sending...',
    verified: 'Email verified! You can now sign in.', // ours
    invalidCode: 'Invalid verification code. Please check the code and try again.', // ours
  },
  backend: {
    /** The spec's rate-limit text, as payments and messaging answer it. */
    tooManyRequests: 'Too many requests. Please wait a moment and try again',
    conflict: 'This operation conflicts with existing data',
    referencedNotFound: 'Referenced data not found',
    requiredMissing: 'Required information is missing',
    accessDenied: 'Access denied',
    timeout: 'Request timed out. Please try again',
    unexpected: 'An unexpected error occurred',
    invalidJson: 'Request body must be valid JSON', // ours
    nestedTooDeeply: (levels: number) => `Request body must not nest more than ${levels} levels deep`, // ours
    network: 'Network error. Please check your connection and try again.',
    invalidSignature: 'Invalid signature', // ours
    stripeApiVersion: 'Event of another Stripe API version', // ours: the webhook endpoint is not pinned to STRIPE_API_VERSION
    notFound: 'Not found', // ours
    invalidCursor: 'Invalid cursor', // ours
    invalidText: 'Request contains text that is not valid Unicode', // ours
    unavailable: 'The service is busy right now. Please try again in a moment.', // ours: a dependency throttled or failed (503)
  },
  profile: {
    updated: 'Profile updated successfully',
    updateFailed: 'Failed to update profile',
    securityValidationFailed: 'Security validation failed for profile update',
    bioInvalid: 'Bio contains invalid content',
    maxSkills: 'Maximum 20 skills allowed',
    tooManyUpdates: (seconds: number) => `Too many profile updates. Please wait ${seconds} seconds and try again.`, // ours
  },
  jobForm: {
    titleRequired: 'Title is required',
    titleTooLong: 'Title must be less than 100 characters',
    descriptionRequired: 'Description is required',
    descriptionTooLong: 'Description must be less than 2000 characters',
    locationRequired: 'Location is required',
    streetRequired: 'Street address is required', // ours, per the '<Field> is required' pattern
    cityRequired: 'City is required',
    stateRequired: 'State is required',
    categoryRequired: 'Category is required',
    dateRequired: 'Date is required',
    datePast: 'Date cannot be in the past', // ours
    durationRequired: 'Duration is required',
    paymentPositive: 'Payment must be greater than 0',
    paymentTooLarge: 'Payment must be less than $1000',
    fillAllRequired: 'Please fill in all required fields',
    validPayment: 'Please enter a valid payment amount',
    tooManyEntries: 'At most 20 entries are allowed', // ours
    entryTooLong: 'Each entry must be at most 100 characters', // ours
    tooManyImages: 'At most 5 images are allowed', // ours
    imageTooLarge: (file: string) => `${file} is too large. Maximum size is 5MB`,
    notAnImage: (file: string) => `${file} is not an image file`,
    notUploaded: (file: string) => `${file} was not uploaded`, // ours
    remainingImages: (n: number) => `You can only upload ${n} more image(s)`,
    uploadFailed: 'Failed to upload images',
    removeImageFailed: 'Failed to remove image',
  },
  jobs: {
    notFound: 'Job not found',
    noLongerAvailable: 'This job is no longer available',
    loadFailed: 'Failed to load jobs',
    loadFromDatabaseFailed: 'Unable to load jobs from database',
    mustBeLoggedInToPost: 'You must be logged in to post a job',
    onlyPostersCanCreate: 'Only job posters can create job listings',
    posted: 'Job posted successfully!',
    updated: 'Job updated successfully!',
    deleted: 'Job deleted successfully!',
    newJobLive: 'New job posted!',
    removedLive: 'Job removed successfully',
    noJobsTitle: 'No jobs available at the moment.',
    noJobsHint: 'Check back later for new opportunities!',
    noJobsFound: 'No jobs found',
    noSearchResults: 'No jobs found matching your search.',
    tryAdjusting: 'Try adjusting your search or filters',
    signInToView: 'Sign in to view jobs',
    foundCount: (n: number) => `${n} job(s) found`,
    notFoundOrNoPermission: (verb: 'update' | 'cancel' | 'unassign' | 'delete') =>
      `Job not found or you do not have permission to ${verb} it`,
    onlyAssignedCancel: 'Only assigned jobs can be cancelled',
    onlyAssignedUnassign: 'Only assigned jobs can be unassigned',
    cannotDeleteInStatus: 'Job cannot be deleted in its current status',
    paymentUponCompletion: 'Payment upon completion',
    onlyOpenEditable: 'Only open jobs can be edited', // ours
    categoryNotPostable: 'This category is not open for new jobs. Please choose another.', // ours
    priceLocked: 'The price cannot be changed after the job was paid for', // ours
    statusChanged: 'This job changed in the meantime. Please reload and try again.', // ours
    cancelled: 'Job cancelled successfully!', // ours
    unassigned: "Job unassigned successfully! It's now available for other workers.",
    unassignNoticeTitle: 'Job Unassignment Notice',
    unassignNoticeMessage: (title: string) =>
      `You have been unassigned from "${title}". The job poster decided to reassign this job to another worker.`,
    cancelFailed: 'Failed to cancel job',
    updateFailed: 'Failed to update job',
    unassignFailed: 'Failed to unassign job',
    deleteFailed: (reason: string) => `Failed to delete job: ${reason}`,
    posterLabel: 'Job Poster',
  },
  payments: {
    // ours, the money process (DECISIONS.md "Wave 4", shared/job-process.ts):
    alreadyRefundedJob: "This job's payment was refunded to the poster, so it can no longer be released.",
    moneyDecisionUnderWay: "A decision on this job's payment is already under way. Please try again in a moment.",
    alreadyReleased: "This job's payment was already released to the worker.",
    onlyReleasedReverse: 'Only a payment released to the worker can be reversed.',
    refundAfterReleaseNeedsReversal: "This payment was already released to the worker: refunding it reverses the worker's transfer. Confirm the worker and the amount to do so.",
    reversalNotConfirmed: 'The worker or amount you confirmed does not match this payment. Please review the payment again.',
    refundedTitle: 'Payment refunded',
    refundedMessage: (title: string, amount: string, reason: string) => `The payment of ${amount} USD for "${title}" was refunded to the poster and the job cancelled. Reason: ${reason}`,
    reversedTitle: 'Payment reversed and refunded',
    reversedMessage: (title: string, workerAmount: string, refundAmount: string, reason: string) =>
      `The ${workerAmount} USD released for "${title}" was taken back from the worker and ${refundAmount} USD refunded to the poster. Reason: ${reason}`,
    // ours, Wave 5: what moved, as it moved.
    reversedToWorker: (title: string, recovered: string, unrecovered: string, reason: string) =>
      unrecovered === '0.00'
        ? `The ${recovered} USD released to you for "${title}" was taken back from your balance and the poster refunded. Reason: ${reason}`
        : `The payment released to you for "${title}" was reversed and the poster refunded: ${recovered} USD was taken back from your balance, and the ${unrecovered} USD you had already cashed out is owed to the platform. Reason: ${reason}`,
    reversalSummary: (title: string, recovered: string, unrecovered: string, reason: string) =>
      unrecovered === '0.00'
        ? `The payment released for "${title}" was reversed: ${recovered} USD taken back from the worker, and the poster refunded. Reason: ${reason}`
        : `The payment released for "${title}" was reversed and the poster refunded: ${recovered} USD was taken back from the worker's balance; ${unrecovered} USD had been cashed out and is owed by the worker. Reason: ${reason}`,
    reversalBalanceChanged: "The worker's balance changed since you reviewed this reversal (a cash-out?). Review what can be taken back and confirm again.",
    reversalRefused: 'Stripe refused to reverse the transfer. The payment stays released; review it and try again.',
    chargebackOpen: "The poster's bank is disputing this payment (a chargeback): it cannot be refunded until the bank decides.",
    frozenByChargeback: "The poster's bank is disputing this payment (a chargeback): the money stays where it is until the bank decides.",
    chargedBack: "The poster's bank took this payment back (a chargeback), so it can no longer be released or refunded.",
    nothingLeftToRelease: "Nothing is left to release: a refund made in Stripe left less than the platform's fee. Refund the rest instead.",
    draftGoneRefunded: 'This draft was removed before its payment completed, so the payment was refunded to your card.',
    draftRefundReason: 'The draft was removed before its payment completed',
    draftRefunded: (title: string, amount: string) => `Your payment of ${amount} USD for the draft "${title}" went through after the draft was removed, so it was refunded to your card.`,
    refundedInStripe: 'Refunded in Stripe',
    refundedInPart: (title: string, amount: string, left: string) => `${amount} USD of your payment for "${title}" was refunded to your card. ${left} USD stays held for the job.`,
    refundBeyondEscrowTitle: 'Refund beyond what the job held',
    refundBeyondEscrow: (title: string, amount: string, lacking: string) =>
      `A refund of ${amount} USD made in Stripe for "${title}" came after its money had left the escrow: ${lacking} USD of it is the platform's loss.`,
    chargebackOpenedTitle: 'Payment disputed by the bank',
    chargebackClosedTitle: 'Bank dispute decided',
    chargebackOpened: (title: string, amount: string, dueBy: string | null) =>
      `The card's bank disputed the payment of ${amount} USD for "${title}" (a chargeback). The money stays where it is until the bank decides.${dueBy ? ` Evidence is due by ${dueBy.slice(0, 10)}.` : ''}`,
    chargebackWon: (title: string, amount: string) => `The bank decided the dispute of the ${amount} USD payment for "${title}" for the platform: the money is back.`,
    chargebackLost: (title: string, amount: string) => `The bank decided the dispute of the ${amount} USD payment for "${title}" for the cardholder and kept the money.`,
    /** A job of several charges (a higher price approved): the bank kept one, the rest goes back. */
    restRefundedAfterChargeback: 'The bank kept the disputed charge; the rest of what was paid for the job is refunded',
    autoReleasePausedTitle: 'Automatic release paused',
    autoReleasePausedMessage: (title: string, reason: string) => `The poster paused the automatic release of your payment for "${title}". Reason: ${reason}`,
    autoReleaseResumedTitle: 'Automatic release resumed',
    autoReleaseResumedMessage: (title: string) => `The automatic release of your payment for "${title}" was resumed.`,
    autoReleasePaused: (reason: string) => `The automatic release is paused. Reason: ${reason}`,
    autoReleasePauseReasonRequired: 'Please say why you pause the automatic release.',
    autoReleaseNotRunning: 'The automatic release of this job is not counting down.',
    autoReleaseNotPaused: 'The automatic release of this job is not paused.',
    autoReleaseBlockedTitle: 'Payment waiting for your payment account',
    autoReleaseBlockedToWorker: (title: string) =>
      `The payment for "${title}" is due, but your payment account is not ready to receive it. Finish your payment account setup in Payment settings: it is released as soon as your account is ready.`,
    autoReleaseBlockedToPosterTitle: 'Automatic release delayed',
    autoReleaseBlockedToPoster: (title: string) => `The payment for "${title}" could not be released automatically yet: the worker's payment account is not ready. It is released as soon as it is.`,
    autoReleaseBlocked: "The automatic release is waiting for the worker's payment account to be ready.",
    autoReleaseBlockedWorker: 'Your payment is due, but your payment account is not ready. Finish your payment account setup to receive it.',
    accountNeededToPost: 'Please set up your payment account before posting jobs so you can securely pay workers.',
    accountNeededToApply: 'Please set up your payment account before applying so you can receive payments.',
    tooManyAttempts: 'Too many payment attempts for this job. Please wait before trying again',
    // Spec 1 §8 "Payment mapping": what the payment start's generic answers become on the job form.
    signInToContinue: 'Please sign in to continue',
    tooManyAttemptsWait: 'Too many attempts. Please wait a moment and try again',
    initiated: 'Payment initiated. Please complete the payment to secure the job.',
    invalidResponse: 'Invalid payment response from server',
    initFailed: 'Failed to initialize payment',
    failed: 'Payment failed',
    cardDeclined: 'Your card was declined',
    checkCard: 'Please check your card details',
    network: 'Network error during payment. Please try again.',
    notSucceeded: 'The payment has not succeeded', // ours
    noAccount: 'No payment account connected',
    connectFailed: 'Failed to connect Stripe account',
    setupFailed: 'Failed to setup Stripe account',
    statusRefreshed: 'Stripe status refreshed successfully!',
    statusRefreshFailed: 'Failed to refresh Stripe status. Please try again.',
    capabilitiesChecked: 'Payout capabilities checked successfully',
    capabilitiesCheckFailed: 'Failed to check payout capabilities',
    checkCapabilities: 'Check payout capabilities', // ours: the action's button
    payoutOptionAvailable: 'Available to your payout account', // ours
    payoutOptionUnavailable: 'Not available to your payout account', // ours
    standardPayoutsOnly: 'Your payout account takes Standard payouts only (1-2 business days).', // ours
    setupComplete: 'Payment Setup Complete',
    workerSetupSuccess: "You're all set! Your payment account has been configured successfully.",
    setupOpenedInNewWindow: 'Stripe setup opened in a new window. Complete the process to start receiving payments.', // spec paraphrase
    noWorkerAssigned: 'No worker assigned to this job',
    cannotReleaseYet: 'Payment cannot be released yet',
    workerSetupIncomplete: "Payment cannot be released yet: the worker's payment setup is incomplete",
    workerNotConnected: 'Payment cannot be released yet: the worker needs to connect their payment account',
    releaseFailed: 'Failed to release payment',
    releaseRefused: 'Payment release failed',
    released: 'Payment released! The worker will receive the funds within 1-2 business days.',
    onlyCompletedRelease: 'Only completed jobs can be paid', // ours
    refundReasonRequired: 'Please provide a reason for the refund.',
    releaseReasonRequired: 'Please provide a reason for releasing the payment.', // ours
    refundFailed: 'Failed to issue refund',
    refunded: 'Refund issued', // ours
    signInForEarnings: 'Please sign in to view your earnings',
    tooManyRequests: 'Too many requests. Please wait a moment and try again',
    paidButJobFailed: 'Payment succeeded but failed to create job. Please contact support.',
    setupReturned: 'Your payment account setup has been submitted.', // ours
    earningsLoadFailed: 'Failed to load your earnings', // ours
    finishSetupForPayouts: 'Finish your payment setup to see the fast payout options.', // ours
    unavailable: 'Payments are temporarily unavailable. Please try again in a few minutes.', // ours: Stripe keys not (yet) readable
    // ours, auto-release (DECISIONS.md "Wave 3"):
    autoReleasedTitle: 'Payment released automatically',
    autoReleasedToWorker: (amount: string, title: string) =>
      `${amount} USD for "${title}" was released automatically. The funds arrive within 1-2 business days.`,
    autoReleasedToPoster: (amount: string, title: string) =>
      `The payment of ${amount} USD for "${title}" was released to the worker automatically, as no dispute or decline came before the deadline.`,
    autoReleaseCountdown: (viewer: 'poster' | 'worker', remaining: string) =>
      viewer === 'poster'
        ? `The payment is released to the worker automatically in ${remaining}, unless you decline the completion or open a dispute.`
        : `The payment is released to you automatically in ${remaining}, unless the poster declines the completion or a dispute is opened.`,
    autoReleaseDue: 'The payment is being released automatically.',
    autoReleaseReminderTitle: 'Payment will be released soon',
    autoReleaseReminderMessage: (title: string, when: string) =>
      `The payment for "${title}" will be released to the worker automatically ${when}. Decline the completion or open a dispute before then if something is wrong.`,
  },
  /** Ours, except the spec's payout option texts (PAYOUT_OPTIONS): Instant Payouts (docs/decisions/0212-instant-payout-errors.md). */
  payouts: {
    cashOut: 'Cash out now',
    confirmTitle: 'Cash out now?',
    confirm: (amount: string, last4: string, fee: string, total: string) =>
      `Send ${amount} to your debit card ending in ${last4} within about 30 minutes? The 1.5% Instant Payout fee of ${fee} is taken from your balance too (${total} in all).`,
    feeLine: (fee: string) => `Instant Payout fee (1.5%): ${fee}`,
    netLine: (amount: string) => `You receive: ${amount}`,
    sent: (amount: string) => `${amount} is on its way to your debit card.`,
    failed: 'Failed to cash out. Please try again.',
    loadFailed: 'Failed to load your instant payout balance',
    nothingToCashOut: 'Nothing to cash out instantly yet.',
    notEligible: 'Your payout card does not take Instant Payouts. Standard payouts arrive automatically in 1-2 business days.',
    onlyWorkers: 'Only workers can cash out',
    accountNeeded: 'Finish your payment setup to cash out.',
    overBalance: 'That is more than your instant balance can pay out with its fee.',
    otherAmountInProgress: 'Another cash-out with this request is in progress.',
    stripeUnavailable: 'Payouts are temporarily unavailable. Please try again in a moment.',
    invalidAmount: 'The payout must be an amount in cents',
    invalidKey: 'A request key of 8 to 64 letters, digits or dashes is required',
    failedTitle: 'Instant payout failed', // ours
    failedNoReason: 'Stripe gave no reason.', // ours
    failedMessage: (amount: string, reason: string) => `Your instant payout of ${amount} could not be sent to your card: ${reason} The money is back in your balance.`, // ours
    historyFailed: (reason: string) => `, failed: ${reason}`, // ours
    historyInProgress: ', in progress', // ours
  },
  /** Ours: tips (docs/decisions/0142-tips-who-when-how-much.md). */
  tips: {
    onlyPoster: "Only the job's poster can add a tip",
    onlyPaid: 'A tip can be added once the payment is released',
    windowClosed: 'Tips can be added up to 7 days after the payment is released',
    alreadyTipped: 'You already added a tip for this job',
    otherAmountInProgress: 'A tip of another amount is already being paid for this job. Finish or reload it first',
    noSavedCard: "This job's card was not saved for tips, so a tip cannot be charged to it",
    notRefundable: 'Tips go to the worker in full and are not refunded',
    cardNeeded: 'Your bank needs you to confirm this tip. Enter your card to finish.',
    added: (amount: string, worker: string) => `Tip of ${amount} sent to ${worker}. Thank you!`,
    failed: 'Failed to add the tip',
    invalidAmount: 'Please enter a valid tip amount',
    receivedTitle: 'You received a tip',
    receivedMessage: (amount: string, title: string) => `The poster tipped you ${amount} USD for "${title}". It arrives with your next payout.`,
    // ours, tips in the money process (Wave 5):
    inFlight: "A tip for this job is still being paid. Please try again in a moment.",
    refundedInstead: 'Your tip could not reach the worker, so it was refunded to your card.',
    refundedTitle: 'Tip refunded',
    refundedMessage: (amount: string, title: string, why: string) => `Your tip of ${amount} USD for "${title}" was refunded to your card: ${why}`,
    refundedPaymentReversed: "the job's payment was taken back from the worker before the tip went through.",
    refundedWorkerLeft: 'the worker closed their account before the tip went through.',
    refundedJobGone: 'the job was removed before the tip went through.',
  },
  /** Finding work (issue 46): near me, the map and saved searches. */
  search: {
    nearMe: 'Near me', // ours
    anyDistance: 'Any distance', // ours
    withinMiles: (miles: number) => `Within ${miles} mi`, // ours
    distance: (miles: number) => `${miles.toFixed(1)} mi`, // ours
    distanceLabel: (miles: number) => `${miles.toFixed(1)} miles away`, // ours
    radiusLabel: 'Distance', // ours
    radiusChoice: 'Radius must be 5, 10, 25 or 50 miles', // ours
    coordinatesTogether: 'Latitude and longitude go together', // ours
    locationNeeded: 'Set your location to search near you', // ours
    locationRefused: 'Your browser did not share your location. Set your location on the notification settings page instead.', // ours
    locating: 'Finding where you are...', // ours
    showMap: 'Show map', // ours
    hideMap: 'Hide map', // ours
    mapLoading: 'Loading the map...', // ours
    mapLabel: 'Map of the jobs found', // ours
    mapLoadFailed: 'The map could not be loaded. The list shows every job found.', // ours
    mapPin: (title: string, miles: string) => `${title}${miles ? `, ${miles}` : ''}`, // ours
    mapApproximate: 'Pins mark each job\'s area, not its address.', // ours
    saveSearch: 'Save this search', // ours
    saveSearchHint: 'Pick a distance to save this search and hear about new jobs that match it.', // ours
    searchSaved: 'Search saved. We will tell you about new jobs that match it.', // ours
    savedSearchesTitle: 'Saved searches', // ours
    savedSearchesHint: 'New jobs that match a saved search reach you as notifications, by push and in your daily email of new jobs, as you chose for “A new job matches a search you saved”.', // ours
    noSavedSearches: 'No saved searches yet. Search for jobs near you and choose “Save this search”.', // ours
    removeSavedSearch: 'Remove', // ours
    savedSearchRemoved: 'Saved search removed', // ours
    savedSearchNotFound: 'Saved search not found', // ours
    tooManySavedSearches: 'You can keep up to 10 saved searches. Remove one to save another.', // ours
    onlyWorkersSave: 'Only workers can save searches', // ours
    /** A saved search in words: “gutters” in Yard Work within 10 mi. */
    describe: (search: { text: string; category: string | null; radiusMiles: number }) =>
      `${search.text ? `“${search.text}”` : 'Any job'}${search.category ? ` in ${search.category}` : ''} within ${search.radiusMiles} mi`, // ours
    alertTitle: 'New job for your saved search', // ours
    alertMessage: (title: string, location: string, search: string) => `${title} (${location}) matches your saved search ${search}`, // ours
    digestTitle: (count: number) => (count === 1 ? '1 new job for your saved searches' : `${count} new jobs for your saved searches`), // ours
    digestIntro: 'These jobs match your saved searches and were posted since your last digest.', // ours
    digestJobDetail: (location: string) => `(${location}), matches a saved search`, // ours
  },
  savedJobs: {
    loadFailed: 'Failed to load saved jobs',
    removed: 'Job removed from saved jobs',
    removeFailed: 'Failed to remove job',
    saved: 'Job saved', // ours
    onlyWorkers: 'Only workers can save jobs', // ours
  },
  /** Spec 2 §8 "Applications and completion". */
  applications: {
    loadFailed: 'Failed to load applications',
    acceptFailed: 'Failed to accept worker',
    rejectFailed: 'Failed to reject application',
    startConversationFailed: 'Failed to start conversation',
    submitFailed: 'Failed to submit application',
    loginToApply: 'Please log in to apply for jobs',
    accepted: 'Worker accepted! Job has been assigned and other applicants have been notified.',
    rejected: 'Application rejected. The worker has been notified.',
    submitted: 'Application submitted successfully!',
    jobDeclined: 'Job declined',
    questionSent: 'Question sent! The job poster will be notified.',
    loginToMessage: 'You must be logged in to send messages',
    cannotMessageSelf: 'You cannot message yourself',
    messagingClosedForCompleted: 'Messaging is no longer available for completed jobs',
    markedCompleted: 'Job marked as completed! The poster has been notified to review and release payment.',
    completeFailed: (reason: string) => `Failed to mark job as completed: ${reason}`,
    notAuthorizedToComplete: 'No job found or you are not authorized to complete this job',
    completionDeclined: 'Job completion declined. Worker has been notified with feedback.',
    declineReasonRequired: 'Please provide a reason for declining the job completion',
    chatClosedPaid: 'Messaging is no longer available - job has been completed and paid.',
    chatBlocked: 'Messaging is blocked. The job poster will need to unblock you to continue messaging.',
    /** Spec 1 §8's mapping of 'not available for application'. */
    notAvailable: 'This job has already been assigned to someone else',
    onlyWorkers: 'Only workers can apply for jobs', // ours
    ownJob: 'You cannot apply to your own job', // ours
    alreadyApplied: 'You have already applied for this job', // ours
    full: 'Applications are full for this job', // ours
    messageTooLong: 'The message must be at most 1000 characters', // ours
    notFound: 'Application not found', // ours
    notPending: 'This application has already been decided', // ours
    workerAlreadyAccepted: 'A worker has already been accepted for this job', // ours
    onlyCompletedDecline: 'Only completed jobs can be declined', // ours
    declineReasonTooLong: 'The reason must be at most 1000 characters', // ours
    acceptedTitle: 'Application accepted', // ours
    acceptedMessage: (title: string) => `Congratulations! You have been accepted for "${title}".`, // ours
    rejectedTitle: 'Application not selected', // ours
    rejectedMessage: (title: string) => `The poster of "${title}" chose another applicant or declined your application.`, // ours
    completedTitle: 'Job completed', // ours
    completedMessage: (title: string) => `"${title}" was marked as completed. Please review the work and release payment.`, // ours
    declinedTitle: 'Job completion declined', // ours
    declinedMessage: (title: string, reason: string) => `The poster declined the completion of "${title}": ${reason}`, // ours
    questionTitle: 'New question about your job', // ours
    awayMessagesTitle: 'New messages while you were away', // ours
    awayMessagesMessage: (name: string, title: string) => `${name} sent you messages about "${title}". Open the conversation to read and reply.`, // ours
    questionMessage: (workerName: string, title: string) => `${workerName} has a question about "${title}".`, // ours
    newApplicantTitle: 'New applicant', // ours
    newApplicantMessage: (workerName: string, title: string) => `${workerName} applied to "${title}". Review the applicants to accept one.`, // ours
  },
  /** Spec 2 §8 "Reviews". */
  reviews: {
    ratingRequired: 'Please select a rating',
    cannotModify: 'Reviews cannot be modified once submitted',
    duplicate: 'You have already reviewed this person for this job',
    submitFailedWith: (reason: string) => `Failed to submit review: ${reason}`,
    submitFailed: 'Failed to submit review',
    submitted: 'Review submitted successfully!',
    updated: 'Review updated successfully!',
    loginToReview: 'You must be logged in to submit a review',
    loadFailed: 'Failed to load reviews',
    commentTooLong: 'The comment must be at most 500 characters', // ours
    onlyAfterPaid: 'Reviews open once the job has been paid', // ours
    onlyParties: 'Only the poster and the worker of this job can review each other', // ours
    notFound: 'Review not found', // ours
    noRatings: 'No ratings yet', // spec 2 §9
    hiddenUntilBoth: 'Your review stays hidden until the other side reviews or 7 days pass.', // issue 26
  },
  /** Spec 1 §8 "Messaging" and spec 2 §2 (the chat screens); the refusals shared with applications are there. */
  messaging: {
    loadFailed: 'Failed to load conversations',
    sendFailed: 'Failed to send message',
    unblockFailed: 'Failed to unblock conversation',
    unblocked: 'Worker can now message again',
    conversationNotFound: 'Conversation not found',
    workerBlocked: 'Worker blocked',
    messagingBlocked: 'Messaging blocked',
    /** Spec 1 §8's rate_limit_error text, for the 10-per-minute limit of §9. */
    tooManyMessages: 'Too many requests. Please wait a moment and try again',
    blocked: 'Worker blocked. They cannot message you until you unblock them.', // ours
    blockFailed: 'Failed to block worker', // ours
    messageEmpty: 'Please enter a message', // ours
    messageTooLong: 'The message must be at most 2000 characters', // ours
    onlyPosterBlocks: 'Only the poster of the job can block or unblock the worker', // ours
    notAWorker: 'Conversations are between a job poster and a worker', // ours
    notAnApplicant: 'You can message the workers who applied for this job', // ours
    onlyAssignedWorker: 'Only the worker assigned to this job can be messaged about it now', // ours
    closedAssignedElsewhere: 'This job is now assigned to another worker. This conversation is read-only.', // ours
    closedCancelled: 'This job was cancelled. This conversation is read-only.', // ours
    messagesLoadFailed: 'Failed to load messages', // ours
    empty: 'No conversations yet', // ours
    invalidPosition: 'That is not a position in a conversation', // ours
  },
  landing: {
    earnMoney: 'I Want to Earn Money',
    needHelp: 'Need Help With Tasks',
    hourlyPay: '$25-75 per hour',
    sameDayPay: 'Same-day pay',
    noExperience: 'No experience needed',
    signUpTime: 'Sign up in 30 seconds',
    postTime: 'Post in 60 seconds',
    activeUsers: '10,000+',
    earned: '$2.1M+',
    jobsCompleted: '50,000+',
  },
  nav: {
    adminTools: 'Admin Tools',
    adminModeActive: 'Admin Mode Active',
    myEarnings: 'My Earnings',
    profileSettings: 'Profile Settings',
    notificationSettings: 'Notification Settings', // ours: the menus' entry to /notification-settings
    adminDashboard: 'Admin Dashboard',
    continueToDashboard: 'Continue to Dashboard',
    adminUnavailable: 'Admin (Unavailable)',
  },
  passwordReset: {
    codeSent: 'We sent a password reset code to your email.', // ours
    done: 'Password reset successfully! You can now sign in with your new password.', // ours
    failed: 'Failed to reset password', // ours
  },
  profileCard: {
    andMore: (n: number) => `... and ${n} more`,
    recentlyJoined: 'Recently joined',
    duplicateSkill: (skill: string) => `${skill} is already in your skills`, // ours
    signedOutEverywhere: 'You have been signed out on all devices', // ours
    dataExported: 'Your data has been downloaded', // ours
    dataExportFailed: 'Failed to download your data', // ours
  },
  /** Account deletion (issue 27, DECISIONS.md "Account deletion"); all ours. */
  accountDeletion: {
    wrongPassword: 'Incorrect password. Please try again.',
    passwordRequired: 'Please enter your password to confirm',
    assignedJob: 'You cannot delete your account while you have an assigned job. Finish or cancel it first.',
    completedUnpaid: 'You cannot delete your account while a completed job awaits its payment release.',
    openDispute: 'You cannot delete your account while one of your disputes is open.',
    moneyPending: 'You cannot delete your account while a payment, tip or cash-out of yours is still on its way. Please try again in a few minutes.', // ours (Wave 5)
    adminAccount: 'The admin account cannot be deleted.',
    failed: 'Failed to delete your account',
    deleted: 'Your account has been deleted. Goodbye!',
    deletedName: 'Deleted user',
    auditReason: 'Account deleted by its user',
    sweepReason: 'Deleted account checked 30 days on',
  },
  /** Identity verification (issue 47, docs/decisions/0320); all ours. */
  identity: {
    badge: 'ID verified',
    verifiedOnly: 'Only ID-verified workers may apply',
    applyRefused: 'Only ID-verified workers may apply to this job. Verify your identity from your profile, then apply.',
    startFailed: 'Could not start the identity check. Please try again.',
    alreadyVerified: 'Your identity is already verified.',
    stillChecking: 'Stripe is still checking your last try. Please wait for its result.',
    adminAccount: 'The admin account does not need an identity check.',
    verifiedTitle: 'Identity verified',
    verifiedMessage: 'Your identity is verified: posters now see the "ID verified" badge on your profile and applications.',
    retryTitle: 'Your identity check needs another try',
    notVerified: 'This user is not ID verified.',
    revoked: (name: string) => `${name}'s ID verification was removed`,
    revokedTitle: 'Your ID verification was removed',
    revokedMessage: 'An admin removed your ID verification. You can verify again from your profile.',
  },
  legal: {
    yourTrustMatters: 'Your Trust Matters',
  },
  disputes: {
    failedToLoad: 'Failed to load disputes',
    failedToLoadMessages: 'Failed to load messages',
    responseSent: 'Response sent to admin',
    failedToSendResponse: 'Failed to send response',
    selectJob: 'Please select a job to dispute',
    mustBeLoggedIn: 'You must be logged in to submit a dispute.',
    fillRequired: 'Please fill in all required fields.',
    failedToSubmit: 'Failed to submit dispute',
    submitted: 'Dispute submitted successfully.',
    submitDispute: 'Submit Dispute',
    submitADispute: 'Submit a Dispute',
    underReview: 'Dispute Under Review',
    unableToSubmit: 'Unable to Submit Dispute',
    cannotSubmit: 'Cannot submit a dispute for this job. Please ensure the job has an assigned worker.',
    howDisputesWork: 'How Disputes Work',
    openDisputeCenter: 'Open Dispute Center', // ours
    reportProblem: 'Problem with this job? Tell our admin team in the Dispute Center.', // ours
    responseTime: 'Our admin team typically responds within 24-48 hours.',
    selectDisputes: 'Please select disputes to resolve.',
    failedToLoadTemplates: 'Failed to load resolution templates',
    failedToSendMessage: 'Failed to send message',
    underReviewText: 'You have already submitted a dispute for this job. Our admin team is reviewing it and will reach out in the dispute thread.', // ours
    alreadyFiled: 'You have already submitted a dispute for this job.', // ours
    notFound: 'Dispute not found', // ours
    threadClosed: 'This dispute is closed; its thread is read-only.', // ours
    alreadyResolved: 'This dispute is already resolved.', // ours
    messageRequired: 'Please enter a message.', // ours
    tooLong: 'This text is too long.', // ours
    invalidPriority: 'Please choose a priority: low, medium, high or urgent.', // ours
    resolutionRequired: 'Please choose a template or write a resolution.', // ours
    templateRequired: 'Please choose a resolution template.', // ours
    templateNotFound: 'Resolution template not found', // ours
    tooMany: 'Select at most 100 disputes at a time.', // ours
    filedTitle: 'Dispute Filed', // ours
    filedMessage: (jobTitle: string) => `A dispute was filed about "${jobTitle}". Our admin team will review it.`, // ours
    resolvedTitle: 'Dispute Resolved', // ours
    resolvedMessage: (jobTitle: string) => `The dispute about "${jobTitle}" was resolved.`, // ours
    // ours, disputes that decide the money (DECISIONS.md "Wave 4"):
    resolvedReleased: (jobTitle: string, amount: string) => `The dispute about "${jobTitle}" was resolved: ${amount} USD was released to the worker.`,
    resolvedRefunded: (jobTitle: string, amount: string) => `The dispute about "${jobTitle}" was resolved: ${amount} USD was refunded to the poster.`,
    resolvedSplit: (jobTitle: string, toWorker: string, refunded: string) => `The dispute about "${jobTitle}" was resolved with a split: ${toWorker} USD to the worker, ${refunded} USD refunded to the poster.`,
    nothingToSplit: 'This job has no payment held for a worker to split.',
    // ours (Wave 5):
    releaseToOtherWorker: "This dispute's worker no longer holds the job, so a release would pay someone else. Resolve it with a split or a refund.",
    splitRefused: "Stripe refused the split's refund (the payment changed in Stripe since?). The dispute stays open: review the job's money and resolve it again.",
    splitWithFormerWorkerTitle: 'Job cancelled',
    splitWithFormerWorkerMessage: (title: string) => `"${title}" was cancelled: a dispute with its former worker was resolved by splitting the job's payment between them and the poster.`,
    splitAmountInvalid: (payment: string) => `Enter the worker's part: more than 0.00 and less than the payment of ${payment} USD.`,
    resolved: 'Dispute resolved', // ours
    bulkResolved: (count: number) => `${count} disputes resolved`, // ours
    prioritySet: 'Priority updated', // ours
  },
  notFoundPage: '404 Oops! Page Not Found',
  /** Spec 2 §2 and §8 "Location and preferences", "Onboarding". */
  location: {
    cardTitle: 'Location and Job Notifications',
    quickSetupRequired: 'Quick Setup Required',
    quickSetupHint: 'Set your location to get notified about jobs near you.', // ours
    getCurrentLocation: 'Get Current Location',
    updateLocation: 'Update Location',
    locationSetUpdate: 'Location Set - Update?',
    locationSetSuccessfully: 'Location Set Successfully',
    savePreferences: 'Save Preferences',
    preferencesSaved: 'Notification preferences saved!',
    preferencesFailed: 'Failed to save preferences',
    notSupported: 'Location services are not supported on this device.',
    needsHttps: 'Location access requires a secure connection (HTTPS).',
    permissionDenied: 'Location permission denied. Please enable location access in your browser settings.',
    accessDenied: 'Location access denied. Please enable location permissions in your browser settings.',
    unavailable: 'Location unavailable. Please check your device location settings.',
    timedOut: 'Location request timed out. Please try again.',
    needsSecureConnection: 'Location access requires a secure connection.',
    currentLocationFailed: 'Failed to get current location.',
    updateFailed: 'Failed to update location',
    updated: 'Location updated successfully!',
    onboardingLocationFailed: 'Failed to get location. Please try zip code instead.',
    zipNotFound: 'Failed to find location. Please check your zip code.',
    // The geocoding call's failures (spec 1 "External geocoding"; docs/decisions/0265-geocoding-failures-carry-the-specs-texts.md):
    geocodingRequestFailed: 'Geocoding request failed',
    addressNotFound: 'Address not found',
    geocodeFailed: 'Failed to geocode address',
    addressNotFoundHint: 'Workers near the job are not told about it until its address is found: check the street, city and state.', // ours
    invalidZip: 'Please enter a valid zip code',
    confirmMove: (miles: string) => `Your new location is ${miles} miles from the one we have. Update your job search area?`, // ours
    radiusChoice: 'Radius must be 1, 3, 5, 10 or 25 miles', // ours
    dailyLimitChoice: 'Daily limit must be 5, 10, 20 or 50', // ours
    timeFormat: 'Times must be HH:MM', // ours
    timeZoneInvalid: 'Unknown time zone', // ours
    profileRequired: 'Saving preferences requires a profile', // ours (spec 2 §5: requires a profile)
  },
  /** Spec 2 §2 "Notifications" and §8. */
  notifications: {
    viewAll: 'View all notifications',
    title: 'Notifications', // ours
    empty: 'No notifications yet', // ours
    markAllRead: 'Mark all as read', // ours
    nearbyTitle: 'New job near you', // ours
    nearbyMessage: (title: string, miles: string, location: string) => `${title} (${location}) is ${miles} miles from you`, // ours
    channelsTitle: 'How we reach you', // ours
    channelsHint: 'Choose, for each kind of notification, whether it shows in the app, whether we email it and whether it is pushed to your browsers.', // ours
    pushHeading: 'Push', // ours
    pushOptIn: 'Turn on push notifications on this browser', // ours
    pushOptOut: 'Turn off push notifications on this browser', // ours
    pushOn: 'Push notifications are on for this browser.', // ours
    pushOff: 'Turn on push notifications to choose which kinds reach this browser when the app is closed.', // ours
    pushUnavailableHere: 'Push notifications are unavailable on this browser.', // ours
    pushBlocked: 'Push notifications are blocked for this site in your browser settings.', // ours
    pushServiceUnavailable: 'Push notifications are temporarily unavailable. Please try again later.', // ours: VAPID keys not (yet) readable
    pushEndpointInvalid: 'Push subscription endpoint must be an https URL', // ours
    pushEndpointUnknownService: "Push subscription endpoint must be a browser's push service (Chrome, Firefox, Safari or Edge)", // ours
    pushKeysInvalid: 'Push subscription keys are not valid', // ours
    pushTooManyBrowsers: (max: number) => `Push is on for ${max} browsers already. Turn it off on one of them first.`, // ours
    digestTitle: (count: number) => (count === 1 ? '1 new job near you' : `${count} new jobs near you`), // ours
    digestIntro: 'These jobs were posted near you since your last digest.', // ours
    digestJobDetail: (location: string, miles: string) => `(${location}), ${miles} miles from you`, // ours
  },
  /** An email's one-click unsubscribe (issue 25): the link's page and the route. */
  unsubscribe: {
    title: 'Stop these emails', // ours
    question: (what: string) => `Stop emails about "${what}"? Other emails and in-app notifications stay as they are.`, // ours
    confirm: 'Stop these emails', // ours
    working: 'Stopping...', // ours
    done: (what: string) => `Done: we no longer email you about "${what}". You can turn it back on in your notification settings.`, // ours
    invalidLink: 'This unsubscribe link is not valid. Change your emails in your notification settings instead.', // ours
    failed: 'We could not stop these emails. Please try again.', // ours
    settingsLink: 'Notification settings', // ours
  },
  /** Spec 2 §8 "Saved jobs and dashboard", and the dashboards' own words. */
  dashboard: {
    loadFailed: 'Failed to load dashboard data',
    declinedCompletion: (reason: string) => `The poster declined your completion: ${reason}`, // ours
    waitingForRelease: 'Waiting for the poster to release payment', // ours
    waitingForYourRelease: (n: number) => `${n} ${n === 1 ? 'job is' : 'jobs are'} waiting for your release`, // ours
    pendingApplicants: (n: number) => `${n} pending ${n === 1 ? 'applicant' : 'applicants'}`, // ours
  },
  /** Spec 2 §8 "Admin" (issue 13). */
  admin: {
    invalidMoneyPeriod: 'The period must be a day (YYYY-MM-DD) or a month (YYYY-MM)', // ours
    loadFailed: (what: 'transactions' | 'financial data' | 'jobs' | 'flagged jobs' | 'location stats' | 'market analytics' | 'admin actions' | 'categories', reason: string) =>
      `Failed to load ${what}: ${reason}`,
    cancelFailed: 'Failed to cancel job',
    deleteFailed: 'Failed to delete job', // ours
    cancelReasonRequired: 'Please provide a reason for cancelling the job.',
    deleteReasonRequired: 'Please provide a reason for deleting the job.',
    alreadyRefunded: 'This payment was already refunded.', // ours
    decisionNotFound: 'Money decision not found', // ours (Wave 5)
    decisionRetried: 'Decision carried out', // ours
    decisionStillPending: (reason: string) => `Still waiting: ${reason}`, // ours
    refundInProgressOtherReason: 'A refund of this payment is already under way with another reason.', // ours
    onlyHeldCancel: 'Only a job whose payment is still held can be cancelled: open, assigned or completed', // ours
    jobCancelled: 'Job cancelled', // ours
    jobDeleted: 'Job deleted', // ours
    flagReviewed: 'Flag reviewed', // ours
    categoryReasonRequired: 'Please provide a reason for changing the category.', // ours
    categoryHidden: (category: string) => `${category} is hidden from posting`, // ours
    categoryShown: (category: string) => `${category} is open for posting again`, // ours
    categoryChangeFailed: 'Failed to update the category', // ours
    flagAlreadyReviewed: 'This report was already reviewed.', // ours
    reviewNotesRequired: 'Please add a note for the poster.', // ours
    removedNoticeTitle: 'Your job was removed', // ours
    removedNoticeMessage: (title: string, reason: string) => `An admin removed "${title}": ${reason}`, // ours
    cancelledNoticeTitle: 'Your job was cancelled by an admin', // ours
    cancelledNoticeMessage: (title: string, reason: string) => `An admin cancelled "${title}": ${reason}`, // ours
    usersLoadFailed: (reason: string) => `Failed to load users: ${reason}`, // ours
    userLoadFailed: (reason: string) => `Failed to load this user: ${reason}`, // ours
    userNotFound: 'User not found', // ours
    userActionReasonRequired: 'Please provide a reason for this action.', // ours
    adminAccountOutOfReach: 'The admin account cannot be suspended or reset here.', // ours
    alreadySuspended: 'This user is already suspended.', // ours
    notSuspended: 'This user is not suspended.', // ours
    userSuspended: (name: string) => `${name} is suspended`, // ours
    userReinstated: (name: string) => `${name} is reinstated`, // ours
    passwordResetSent: (email: string) => `A password reset email was sent to ${email}`, // ours
    userActionFailed: 'Failed to update the user', // ours
    suspendedJobFlagReason: (name: string, reason: string) => `Automatic: ${name} was suspended (${reason})`, // ours
  },
  /** 'Report this job' (DECISIONS.md "How a job gets flagged"). */
  flags: {
    reportThisJob: 'Report this job', // ours
    reasonRequired: 'Please describe what is wrong with this job.', // ours
    reported: 'Thank you. The admin team will review this job.', // ours
    alreadyReported: 'You have already reported this job.', // ours
    reportFailed: 'Failed to report job', // ours
    cannotReportOwn: 'You cannot report your own job.', // ours
  },
} as const;

/** Maps a sign-in failure to the spec's text by substring of the backend's message. */
export function signInErrorText(backendMessage: string): string {
  const lower = backendMessage.toLowerCase();
  return MSG.signInErrors.find((e) => lower.includes(e.contains))?.text ?? MSG.signInFallback;
}
