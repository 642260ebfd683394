package session

import "github.com/flowcabal/flowcabal/knowledge"

// Entities returns the project's entity files as the session read them
// (the snapshot Role A and Role C work from), or nil when they cannot be
// read.
func (s *Session) Entities() []*knowledge.Entity {
	_, _, kp, err := s.knowledge()
	if err != nil || kp == nil {
		return nil
	}
	return kp.Entities
}
