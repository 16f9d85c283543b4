import type ja from './attach-ja'

// Attachments on a message (issue 25: the paperclip, the chips above the
// message box, files in the history), in English; part of en.ts, keys in
// step with attach-ja.ts.
const attach: typeof ja = {
  attach: {
    button: 'Attach files',
    pickerTitle: 'Files to attach',
    chips: 'Attachments',
    remove: 'Remove {name}',
    adding: 'Adding…',
    pages: '{n} page | {n} pages',
    chars: '{n} characters',
    noVision: '{model} cannot see images, so a message with images is not sent to it: pick a model that can, remove the images, or — if it can — say so below.',
    notAFile: 'Only files can be attached: what was dropped is not a file (to send a link, paste its address into the message).',
    noVisionSet: 'You set {model} not to take images, so a message with images is not sent to it: pick another model, remove the images, or change the setting.',
    canSee: 'This model can see images',
    canSeeSaved: '{model} is now set to take images (Settings, Models)',
    dropHint: 'Drop here to attach',
    image: 'Image {name}',
    imageFailed: 'The image {name} cannot be shown',
    open: 'Open {name}',
    close: 'Close',
    viewer: {
      label: 'Document {name}',
      loading: 'Reading {name}…',
      failed: '{name} cannot be shown: {reason}',
      copy: 'Copy text',
      copied: 'Copied',
      sentNote: 'The text below is the whole file; the model got only that part.',
    },
    fit: {
      label: 'Document too long for the model',
      pages: 'This document is too long for the model: pages 1–{fit} of the {total} pages of {name} fit.',
      onePage: 'This document is too long for the model: only page 1 of the {total} pages of {name} fits.',
      chars: 'This document is too long for the model: the first {fit} of the {total} characters of {name} fit.',
      none: '{name} is too long for the model: not even its beginning fits beside your message.',
      noneMany: 'The attached documents are too long for the model: not all of them fit, even in part ({name} and {others} more).',
      others: 'Other attached documents are cut the same way where they do not fit.',
      kbHint: 'In the knowledge base, only the sections relevant to each question are retrieved.',
      sendPages: 'Send pages 1–{fit}',
      sendPage: 'Send page 1',
      sendChars: 'Send the first {fit} characters',
      addToKb: 'Add to knowledge base',
      adding: 'Adding to the knowledge base…',
      cancel: 'Cancel',
      added: 'Added to the knowledge base: {paths}',
      sentPages: 'Sent: pages 1–{fit} of {total}',
      sentPage: 'Sent: page 1 of {total}',
      sentChars: 'Sent: the first {fit} of {total} characters',
    },
  },
}

export default attach
