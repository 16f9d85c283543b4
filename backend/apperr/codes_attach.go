package apperr

// Codes of attachments (issue 25, backend/attach): files added to a
// message, refused before anything is stored.
const (
	// AttachTooLarge: file {name} is {mib} MiB; a file of its kind ({kind}: image or document) may be at most {maxMiB} MiB.
	AttachTooLarge Code = "attach.tooLarge"
	// AttachUnsupported: file {name} is of a type playchat cannot send ({type}, judged by its content, not its name).
	AttachUnsupported Code = "attach.unsupported"
	// AttachEmpty: file {name} is empty.
	AttachEmpty Code = "attach.empty"
	// AttachNotUTF8: text file {name} is not UTF-8 text.
	AttachNotUTF8 Code = "attach.notUTF8"
	// AttachTextTooLong: the text of {name} is {kib} KiB; an attachment's text may be at most {maxKiB} KiB.
	AttachTextTooLong Code = "attach.textTooLong"
	// AttachImageBroken: image {name} could not be read ({detail}, in English).
	AttachImageBroken Code = "attach.imageBroken"
	// AttachImageTooManyPixels: image {name} has {megapixels} million pixels; at most {max} million are read.
	AttachImageTooManyPixels Code = "attach.imageTooManyPixels"
	// AttachTooMany: a message may carry at most {max} attachments ({n} were given).
	AttachTooMany Code = "attach.tooMany"
	// AttachMessageTooLarge: a message's attachments come to {mib} MiB; together they may be at most {maxMiB} MiB.
	AttachMessageTooLarge Code = "attach.messageTooLarge"
	// AttachNotFound: attachment {id} is no longer waiting to be sent (add the file again).
	AttachNotFound Code = "attach.notFound"
	// AttachUnreadable: file {name} could not be read ({detail}, in English).
	AttachUnreadable Code = "attach.unreadable"
	// AttachMissing: the stored file of attachment {sha} is missing from the data folder.
	AttachMissing Code = "attach.missing"
	// AttachPDFBroken: PDF {name} could not be read ({detail}, in English).
	AttachPDFBroken Code = "attach.pdfBroken"
	// AttachPDFEncrypted: PDF {name} is protected by a password.
	AttachPDFEncrypted Code = "attach.pdfEncrypted"
	// AttachPDFNoText: none of the {pages} pages of PDF {name} has a text layer (a scan, or pictures of text).
	AttachPDFNoText Code = "attach.pdfNoText"
)

var attachTemplates = map[Code]string{
	AttachTooLarge:           "{name} is {mib} MiB: a file of this kind may be at most {maxMiB} MiB",
	AttachUnsupported:        "{name} is of a type playchat cannot attach ({type}); images (PNG, JPEG, GIF, WebP), PDFs, Word documents (.docx) and UTF-8 text files can be attached",
	AttachEmpty:              "{name} is empty",
	AttachNotUTF8:            "{name} is not UTF-8 text",
	AttachTextTooLong:        "the text of {name} is {kib} KiB: an attachment's text may be at most {maxKiB} KiB (add it to the knowledge base instead)",
	AttachImageBroken:        "the image {name} could not be read ({detail})",
	AttachImageTooManyPixels: "the image {name} has {megapixels} million pixels: at most {max} million can be read",
	AttachTooMany:            "a message may carry at most {max} attachments ({n} were added)",
	AttachMessageTooLarge:    "the attachments of this message come to {mib} MiB: together they may be at most {maxMiB} MiB",
	AttachNotFound:           "attachment {id} is no longer waiting to be sent: add the file again",
	AttachUnreadable:         "{name} could not be read ({detail})",
	AttachMissing:            "the stored file of an attachment ({sha}) is missing from the data folder",
	AttachPDFBroken:          "the PDF {name} could not be read ({detail})",
	AttachPDFEncrypted:       "the PDF {name} is protected by a password: remove the password and attach it again",
	AttachPDFNoText:          "the PDF {name} has no text to read on any of its {pages} pages (a scan, or pictures of text): playchat cannot read text in images of a PDF",
}

func init() {
	for c, t := range attachTemplates {
		templates[c] = t
	}
}
