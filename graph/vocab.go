package graph

// More vocabulary: VoID, Dublin Core terms, PROV-O, and RDF Schema and XML Schema
// terms of the labeled graph and its description.
const (
	VoID       = "http://rdfs.org/ns/void#"
	DCTerms    = "http://purl.org/dc/terms/"
	PROV       = "http://www.w3.org/ns/prov#"
	RDFProp    = RDF + "Property"
	RDFSClass  = RDFS + "Class"
	RDFSDomain = RDFS + "domain"
	RDFSRange  = RDFS + "range"
	RDFSDefBy  = RDFS + "isDefinedBy"
	RDFSCmt    = RDFS + "comment"
	XSDInteger = XSD + "integer"
	XSDDecimal = XSD + "decimal"
	XSDDate    = XSD + "date"
	XSDGYear   = XSD + "gYear"
	XSDDT      = XSD + "dateTime"
	XSDAnyURI  = XSD + "anyURI"
)
