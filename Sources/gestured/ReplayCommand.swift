#if canImport(Glibc)
import Glibc
#endif

func replayMain(_ arguments: [String]) -> Int32 {
    eprint("gestured replay: not implemented yet")
    return 1
}
