package pipeline

// WriteRecordsScreenshot is writeRecordsScreenshot, for the external tests.
var WriteRecordsScreenshot = writeRecordsScreenshot
