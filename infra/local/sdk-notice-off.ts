/**
 * Developers run Node 20 and Lambda runs Node 22: the AWS SDK's notice that its next versions
 * need Node 22 is noise here. The SDK prints it as its modules load, so this module sets the
 * switch and `npm run dev` imports it before anything else (tests and CI set it in their config).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
