#if canImport(Glibc)
import Glibc
#endif

func recordMain(_ arguments: [String]) -> Int32 {
    eprint("gestured record: not implemented yet")
    return 1
}
