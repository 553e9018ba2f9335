import { MAX_IMAGE_BYTES } from '../../../shared/limits.js';
import { MSG } from '../../../shared/messages.js';
import { imageUploadRequestSchema } from '../../../shared/schemas/job.js';
import { badRequest } from '../../lib/errors.js';
import { routeGroup } from '../../lib/http.js';
import { isAcceptedImageType, presignImageUpload } from '../../lib/images.js';

export const handler = routeGroup('uploads', {
  /**
   * A presigned POST for one image (job photo or avatar). The browser's claims are checked
   * here for a quick answer; S3 enforces the same limits on the upload itself, and the key is
   * verified again before it is attached to a job or profile.
   */
  'POST /uploads/images': async (request) => {
    const { purpose, fileName, contentType, size } = request.body(imageUploadRequestSchema);
    if (!isAcceptedImageType(contentType)) throw badRequest(MSG.jobForm.notAnImage(fileName));
    if (size > MAX_IMAGE_BYTES) throw badRequest(MSG.jobForm.imageTooLarge(fileName));
    return presignImageUpload(request.caller.userId, purpose, contentType);
  },
});
