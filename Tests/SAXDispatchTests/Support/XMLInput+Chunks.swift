import SAXDispatch

extension XMLInput {
    /// The same input, read `size` bytes at a time.
    func chunked(_ size: Int) -> XMLInput {
        var input = self
        input.chunkSize = size
        return input
    }
}

extension AsyncXMLInput {
    /// The same input, gathered or read `size` bytes at a time.
    func chunked(_ size: Int) -> AsyncXMLInput {
        var input = self
        input.chunkSize = size
        return input
    }
}
