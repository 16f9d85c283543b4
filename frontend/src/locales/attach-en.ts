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
    noVision: '{model} cannot see images: pick a model that can, or remove the images.',
    dropHint: 'Drop here to attach',
    image: 'Image {name}',
    imageFailed: 'The image {name} cannot be shown',
    open: 'Open {name}',
    close: 'Close',
  },
}

export default attach
