/**
 * Images uploaded in the console for the content editors (issue 27): the server's refusals and the
 * "Insert image" dialog of the Markdown editors. Part of messages/console.ts as `images`.
 */
export const consoleImagesMessages = {
  forbidden: 'Only content editors, API managers and administrators may upload images.',
  /** Refusals of POST /admin-api/images (each a title the dialog shows as it is). */
  errors: {
    notAnImage: 'The file is not a PNG, JPEG, GIF or WebP image (its content was checked, not its name).',
    svgRefused: 'SVG images are not accepted, as they can carry scripts: upload a PNG, JPEG, GIF or WebP.',
    notFound: 'There is no such image.',
    tooManyUploads: 'You have uploaded {{max}} images within an hour, the most allowed. Try again later.',
    /** The 409 of DELETE /admin-api/images/:id; `{{uses}}` names the items (usedIn, joined). */
    inUse: 'The image cannot be deleted while it is shown in {{uses}}. Take it out of there first.',
    usedIn: {
      article: 'the article \u2018{{title}}\u2019',
      page: 'the page \u2018{{title}}\u2019',
      faq: 'the FAQ question \u2018{{title}}\u2019',
      story: 'the Quick Start story \u2018{{title}}\u2019',
    },
    andOthers: '{{uses}} and others',
  },
  picker: {
    open: 'Insert image',
    title: 'Insert an image',
    upload: 'Upload',
    uploaded: 'Uploaded images',
    fileLabel: 'Image file',
    fileHint: 'PNG, JPEG, GIF or WebP, at most 10 MB.',
    uploading: 'Uploading {{name}}',
    uploadedOne: '{{name}} is uploaded.',
    chooseLabel: 'Choose an uploaded image',
    none: 'No images have been uploaded yet.',
    loadFailed: 'The uploaded images could not be loaded.',
    more: 'Show older images',
    selected: 'Selected',
    altLabel: 'Image description (alternative text)',
    altHint: 'What the image shows, for people who cannot see it.',
    altRequired: 'Describe the image: the description is required.',
    noImage: 'Upload an image or choose an uploaded one first.',
    insert: 'Insert into the text',
    useAsImage: 'Use as the main image',
    cancel: 'Cancel',
    dimensions: '{{width}} × {{height}} px',
    delete: 'Delete',
    deleteLabel: 'Delete {{name}}',
    deleteConfirm: 'Delete {{name}} for good? Its address stops working.',
    deleted: '{{name}} is deleted.',
  },
} as const;
